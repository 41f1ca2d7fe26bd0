package org.caseassignments.backfill.rebuild;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.caseassignments.backfill.snapshot.BadRow;
import org.caseassignments.backfill.snapshot.SnapshotOptions;
import org.caseassignments.backfill.snapshot.SnapshotRecord;
import org.caseassignments.backfill.snapshot.SnapshotRow;
import org.caseassignments.backfill.snapshot.SnapshotSource;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds the shadow from a snapshot of the case service ({@code --from-snapshot}) before the events go on top: what
 * a rebuild starts from when the topics no longer hold every event. The rows go through the same guarded writer
 * as {@code backfill assignments} (the snapshot guard), one transaction per batch. A bad row stops the rebuild: a
 * snapshot that seeds a projection must be whole.
 */
final class ShadowSeed {

    private ShadowSeed() {
    }

    /** @return the rows written */
    static long seed(Path file, AssignmentWriter shadow, TransactionTemplate transactions, int batchSize) {
        long rows = 0;
        try (SnapshotSource source = SnapshotOptions.openFile(file)) {
            List<AssignmentUpdate> batch = new ArrayList<>();
            for (SnapshotRecord record = source.next(); record != null; record = source.next()) {
                if (record instanceof BadRow bad) {
                    throw new IllegalStateException("the snapshot " + file + " has a bad row at line " + bad.line()
                            + " (" + bad.reason() + ": " + bad.message() + "); a snapshot that seeds a rebuild must be "
                            + "whole, fix it and run again");
                }
                batch.add(((SnapshotRow) record).toUpdate());
                rows++;
                if (batch.size() >= batchSize) {
                    write(shadow, transactions, batch);
                }
            }
            write(shadow, transactions, batch);
        }
        return rows;
    }

    private static void write(AssignmentWriter shadow, TransactionTemplate transactions, List<AssignmentUpdate> batch) {
        if (!batch.isEmpty()) {
            transactions.executeWithoutResult(status -> shadow.apply(batch));
            batch.clear();
        }
    }
}
