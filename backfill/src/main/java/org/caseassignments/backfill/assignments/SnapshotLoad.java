package org.caseassignments.backfill.assignments;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.snapshot.BadRow;
import org.caseassignments.backfill.snapshot.RejectsFile;
import org.caseassignments.backfill.snapshot.SnapshotRecord;
import org.caseassignments.backfill.snapshot.SnapshotRow;
import org.caseassignments.backfill.snapshot.SnapshotSource;
import org.caseassignments.backfill.snapshot.SnapshotSourceException;
import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The load loop: read a batch of good rows (bad ones go to the rejects file), apply it through the
 * guarded writer in one transaction, then record the checkpoint. A run that stops early applies and
 * checkpoints every good row it read before stopping, except when the database fails, which rolls
 * the batch back whole.
 */
final class SnapshotLoad {

    /** Why the loop ended. */
    enum Stop { END, MAX_BATCHES, MAX_ERRORS, SOURCE_FAILED, DATABASE_FAILED }

    record Settings(int batchSize, boolean dryRun, long maxErrors, long maxBatches, Path checkpoint) {
    }

    record Result(Stop stop, Tally tally, long lastLine, String failure, long readThisRun) {
    }

    private final AssignmentWriter writer;
    private final TransactionTemplate transaction;
    private final Settings settings;

    SnapshotLoad(AssignmentWriter writer, TransactionTemplate transaction, Settings settings) {
        this.writer = writer;
        this.transaction = transaction;
        this.settings = settings;
    }

    /** @param from the checkpoint the source was already positioned after, or null for a fresh run */
    Result run(SnapshotSource source, RejectsFile rejects, Checkpoint from, Progress progress) {
        Tally tally = from == null ? new Tally() : from.tally();
        long readBefore = tally.read;
        long lastLine = from == null ? 0 : from.lastLine();
        long batches = from == null ? 0 : from.batches();
        long batchesThisRun = 0;
        Stop stop = null;
        String failure = null;
        while (stop == null) {
            List<AssignmentUpdate> updates = new ArrayList<>(settings.batchSize());
            boolean end = false;
            try {
                while (updates.size() < settings.batchSize() && stop == null) {
                    SnapshotRecord record = source.next();
                    if (record == null) {
                        end = true;
                        break;
                    }
                    tally.read++;
                    lastLine = record.line();
                    if (record instanceof SnapshotRow row) {
                        updates.add(row.toUpdate());
                    } else {
                        rejects.write((BadRow) record);
                        tally.rejected++;
                        if (settings.maxErrors() >= 0 && tally.rejected > settings.maxErrors()) {
                            stop = Stop.MAX_ERRORS;
                            failure = tally.rejected + " rejected rows exceed --max-errors " + settings.maxErrors();
                        }
                    }
                }
            } catch (SnapshotSourceException e) {
                stop = Stop.SOURCE_FAILED;
                failure = e.getMessage();
            }
            if (!updates.isEmpty()) {
                try {
                    tally.add(updates.size(), apply(updates));
                } catch (DataAccessException | TransactionException e) {
                    return new Result(Stop.DATABASE_FAILED, tally, lastLine, "the database refused the batch ending at line "
                            + lastLine + " (nothing of it was applied): " + NestedExceptionUtils.getMostSpecificCause(e).getMessage(),
                            tally.read - readBefore);
                }
            }
            if (end && stop == null) {
                stop = Stop.END;
            }
            batches++;
            batchesThisRun++;
            checkpoint(source, rejects, tally, lastLine, batches, stop == Stop.END);
            progress.update(tally.read, source.fractionDone(), "line " + lastLine);
            if (stop == null && settings.maxBatches() > 0 && batchesThisRun >= settings.maxBatches()) {
                stop = Stop.MAX_BATCHES;
            }
        }
        progress.finish(tally.read, source.fractionDone());
        return new Result(stop, tally, lastLine, failure, tally.read - readBefore);
    }

    private ApplyResult apply(List<AssignmentUpdate> updates) {
        return transaction.execute(status -> {
            ApplyResult result = writer.apply(updates);
            if (settings.dryRun()) {
                status.setRollbackOnly();
            }
            return result;
        });
    }

    private void checkpoint(SnapshotSource source, RejectsFile rejects, Tally tally, long lastLine, long batches,
                            boolean complete) {
        long rejectsBytes = rejects.flush();
        if (settings.checkpoint() != null) {
            new Checkpoint(source.identity(), source.recordsRead(), lastLine, rejects.path().toString(), rejectsBytes,
                    batches, tally, complete, Instant.now().toString()).write(settings.checkpoint());
        }
    }
}
