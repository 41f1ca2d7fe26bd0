package org.caseassignments.api.assignment;

import java.util.UUID;

/**
 * A case's assignment as the projection holds it. A case with no row, or with a placeholder
 * (revision −1), is unknown: no worker, no supervisor.
 *
 * @param revision the upstream assignment revision; negative while unknown
 */
public record CaseAssignment(UUID caseId, AssignmentPair pair, long revision) {

    public static CaseAssignment unknown(UUID caseId) {
        return new CaseAssignment(caseId, AssignmentPair.NONE, -1);
    }

    public boolean known() {
        return revision >= 0;
    }

    /**
     * The triple a row created now stores: the projection's, or — for an unknown case — no worker,
     * no supervisor and revision 0, which the projector heals when {@code case.created} arrives.
     */
    public long storedRevision() {
        return known() ? revision : 0;
    }
}
