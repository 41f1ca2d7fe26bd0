package org.caseassignments.backfill.snapshot;

import java.util.OptionalDouble;

/** Reads snapshot records one at a time, in a stable order, so a run can resume after the records it has done. */
public interface SnapshotSource extends AutoCloseable {

    /**
     * @return the next record, or null at the end of the source
     * @throws SnapshotSourceException when the source itself fails (unreadable file, broken CSV quoting, query error)
     */
    SnapshotRecord next();

    /** Records returned so far, good and bad: the position a checkpoint stores. */
    long recordsRead();

    /** How much of the source has been read, when its size is known (files); empty otherwise. */
    OptionalDouble fractionDone();

    /** What this source is, for a checkpoint to recognise it and an operator to read it. */
    SourceIdentity identity();

    /** Reads and drops {@code records} records: resumes after the records a checkpoint says are done. */
    default void skip(long records) {
        for (long i = 0; i < records; i++) {
            if (next() == null) {
                throw new SnapshotSourceException(identity().description() + " has only " + i
                        + " records, but the checkpoint says " + records + " were done; is it the same snapshot?");
            }
        }
    }

    @Override
    void close();
}
