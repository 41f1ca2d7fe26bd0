package org.caseassignments.backfill.snapshot;

import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;

/** A valid snapshot row: the case service's assignment of one case at one revision. */
public record SnapshotRow(long line, UUID caseId, String assignedWorkerSub, String supervisorSub, long revision,
                          String jurisdiction) implements SnapshotRecord {

    /** The row as an update under the snapshot guard (newer wins, converge at an equal revision). */
    public AssignmentUpdate toUpdate() {
        return AssignmentUpdate.snapshot(caseId, assignedWorkerSub, supervisorSub, revision).withJurisdiction(jurisdiction);
    }
}
