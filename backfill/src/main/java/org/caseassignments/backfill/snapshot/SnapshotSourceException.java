package org.caseassignments.backfill.snapshot;

/** The snapshot source failed as a whole (not one bad row): the run stops after the batches it committed. */
public class SnapshotSourceException extends RuntimeException {

    public SnapshotSourceException(String message) {
        super(message);
    }

    public SnapshotSourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
