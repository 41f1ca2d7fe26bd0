package org.caseassignments.backfill.assignments;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.snapshot.BadRow;
import org.caseassignments.backfill.snapshot.RejectsFile;
import org.caseassignments.backfill.snapshot.SnapshotRecord;
import org.caseassignments.backfill.snapshot.SnapshotRow;
import org.caseassignments.backfill.snapshot.SnapshotSource;
import org.caseassignments.backfill.snapshot.SnapshotSourceException;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.DatabaseRejection;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * The load loop: read a batch of good rows (bad ones go to the rejects file), apply it through the
 * guarded writer in one transaction, then record the checkpoint. Up to {@code parallelism} batches are
 * written at once, each on its own connection, while this thread reads the next; a batch that shares a
 * case with a batch still being written waits for it ({@link BatchWindow}), so every case's rows are
 * applied in the snapshot's order. Checkpoints advance in batch order, only over committed batches.
 *
 * <p>A run that stops early applies and checkpoints every good row it read before stopping, except
 * when the database fails, which rolls that batch back whole; the checkpoint and the counts then stop
 * before it (later batches that did commit are applied again, harmlessly, by a resumed run).
 */
final class SnapshotLoad {

    /** Why the loop ended. */
    enum Stop { END, MAX_BATCHES, MAX_ERRORS, SOURCE_FAILED, DATABASE_FAILED }

    record Settings(int batchSize, int parallelism, boolean dryRun, long maxErrors, long maxBatches, Path checkpoint) {
    }

    record Result(Stop stop, LoadCounts tally, long lastLine, String failure, long readThisRun) {
    }

    /**
     * A batch handed to a writer, with where the source and the read counts stood at its end, and its bad
     * rows: they are written to the rejects file with the rows PostgreSQL refuses once the batch committed,
     * so the file, like the checkpoint, holds committed batches only.
     */
    private record Batch(long number, int rows, long lastLine, long recordsDone, long read, List<BadRow> badRows,
                         boolean last, Future<BatchIsolation.Isolated<SnapshotRow>> applying) {
    }

    private final BatchWriter writer;
    private final Settings settings;
    /** Rows PostgreSQL refused so far, in committed batches: they count towards {@code --max-errors} too. */
    private long refusedByDatabase;

    /** @param writer a writer that does not retry ({@link BatchWriter#once}), rolling back when the run is dry */
    SnapshotLoad(BatchWriter writer, Settings settings) {
        this.writer = settings.dryRun() ? writer.rollingBack() : writer;
        this.settings = settings;
    }

    /** @param from the checkpoint the source was already positioned after, or null for a fresh run */
    Result run(SnapshotSource source, RejectsFile rejects, Checkpoint from, Progress progress) {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(settings.parallelism(), task -> {
            Thread thread = new Thread(task, "backfill-writer-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            return load(source, rejects, from, progress, writers);
        } finally {
            writers.shutdown();
            awaitQuietly(writers);
        }
    }

    private Result load(SnapshotSource source, RejectsFile rejects, Checkpoint from, Progress progress,
                        ExecutorService writers) {
        LoadCounts committed = from == null ? new LoadCounts() : from.tally();
        long readBefore = committed.read;
        long read = committed.read;
        long rejected = committed.rejected;
        long lastLine = from == null ? 0 : from.lastLine();
        long committedLine = lastLine;
        long batches = from == null ? 0 : from.batches();
        long batchesThisRun = 0;
        BatchWindow<Batch> window = new BatchWindow<>(settings.parallelism());
        Stop stop = null;
        String failure = null;
        while (stop == null) {
            List<SnapshotRow> rows = new ArrayList<>(settings.batchSize());
            List<BadRow> badRows = new ArrayList<>();
            boolean end = false;
            try {
                while (rows.size() < settings.batchSize() && stop == null) {
                    SnapshotRecord record = source.next();
                    if (record == null) {
                        end = true;
                        break;
                    }
                    read++;
                    lastLine = record.line();
                    if (record instanceof SnapshotRow row) {
                        rows.add(row);
                    } else {
                        badRows.add((BadRow) record);
                        rejected++;
                        if (settings.maxErrors() >= 0 && rejected + refusedByDatabase > settings.maxErrors()) {
                            stop = Stop.MAX_ERRORS;
                            failure = (rejected + refusedByDatabase) + " rejected rows exceed --max-errors "
                                    + settings.maxErrors();
                        }
                    }
                }
            } catch (SnapshotSourceException e) {
                stop = Stop.SOURCE_FAILED;
                failure = e.getMessage();
            }
            if (end && stop == null) {
                stop = Stop.END;
            }
            batches++;
            batchesThisRun++;
            if (stop == null && settings.maxBatches() > 0 && batchesThisRun >= settings.maxBatches()) {
                stop = Stop.MAX_BATCHES;
            }
            var cases = rows.stream().map(SnapshotRow::caseId).toList();
            while (window.mustWait(cases)) {
                Batch oldest = window.removeOldest();
                String refused = complete(oldest, committed, source, rejects);
                if (refused != null) {
                    return databaseFailed(window, committed, committedLine, refused, readBefore);
                }
                committedLine = oldest.lastLine();
            }
            Future<BatchIsolation.Isolated<SnapshotRow>> applying = rows.isEmpty()
                    ? CompletableFuture.completedFuture(null)
                    : writers.submit(() -> apply(rows));
            window.add(cases, new Batch(batches, rows.size(), lastLine, source.recordsRead(), read, badRows,
                    stop == Stop.END, applying));
            progress.update(read, source.fractionDone(), "line " + lastLine);
        }
        while (!window.isEmpty()) {
            Batch oldest = window.removeOldest();
            String refused = complete(oldest, committed, source, rejects);
            if (refused != null) {
                return databaseFailed(window, committed, committedLine, refused, readBefore);
            }
            committedLine = oldest.lastLine();
        }
        progress.finish(read, source.fractionDone());
        return new Result(stop, committed, lastLine, failure, committed.read - readBefore);
    }

    /**
     * Waits for the oldest batch, counts it and records the checkpoint after it.
     *
     * @return null, or why the database refused the batch (nothing of it was applied)
     */
    private String complete(Batch batch, LoadCounts committed, SnapshotSource source, RejectsFile rejects) {
        BatchIsolation.Isolated<SnapshotRow> result;
        try {
            result = batch.applying().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for the batch ending at line " + batch.lastLine();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof DataAccessException || cause instanceof TransactionException) {
                return "the database refused the batch ending at line " + batch.lastLine()
                        + " (nothing of it was applied): " + NestedExceptionUtils.getMostSpecificCause(cause).getMessage();
            }
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
        List<BadRow> bad = new ArrayList<>(batch.badRows());
        if (result != null) {
            committed.add(batch.rows() - result.refused().size(), result.result());
            result.refused().forEach(refused -> bad.add(refusedRow(refused)));
            refusedByDatabase += result.refused().size();
        }
        bad.sort(Comparator.comparingLong(BadRow::line));
        bad.forEach(rejects::write);
        committed.read = batch.read();
        committed.rejected += bad.size();
        long rejectsBytes = rejects.flush();
        if (settings.checkpoint() != null) {
            new Checkpoint(source.identity(), batch.recordsDone(), batch.lastLine(), rejects.path().toString(),
                    rejectsBytes, batch.number(), committed, batch.last(), Instant.now().toString())
                    .write(settings.checkpoint());
        }
        return null;
    }

    /** A row PostgreSQL refused, for the rejects file: the reason names the SQLSTATE class. */
    private static BadRow refusedRow(BatchIsolation.Refused<SnapshotRow> refused) {
        SnapshotRow row = refused.item();
        DatabaseRejection rejection = refused.rejection();
        return new BadRow(row.line(), rejection.reason(), "PostgreSQL refused the row (SQLSTATE " + rejection.sqlState()
                + "): " + rejection.message(), String.join(",", row.caseId().toString(),
                nullToEmpty(row.assignedWorkerSub()), nullToEmpty(row.supervisorSub()), Long.toString(row.revision())));
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    /** Lets the batches still being written finish (they commit or roll back on their own), then reports. */
    private Result databaseFailed(BatchWindow<Batch> window, LoadCounts committed, long committedLine, String refused,
                                  long readBefore) {
        while (!window.isEmpty()) {
            try {
                window.removeOldest().applying().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException e) {
                // that batch rolled back too; the checkpoint already stops before the refused one
            }
        }
        return new Result(Stop.DATABASE_FAILED, committed, committedLine, refused, committed.read - readBefore);
    }

    /**
     * Through the projector's batch writer: one transaction, or, when PostgreSQL refuses rows of the batch, one
     * per bisected part ({@link BatchIsolation}); a transient failure is thrown, and stops the run.
     */
    private BatchIsolation.Isolated<SnapshotRow> apply(List<SnapshotRow> rows) {
        BatchWriter.Written<SnapshotRow> written = writer.write(BatchReduction.reduce(rows, SnapshotRow::toUpdate,
                row -> null));
        return new BatchIsolation.Isolated<>(written.result(), written.refused());
    }

    private static void awaitQuietly(ExecutorService writers) {
        try {
            writers.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
