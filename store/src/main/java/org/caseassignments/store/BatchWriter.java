package org.caseassignments.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The one batch writer (projector, replay, re-drive, rebuild and snapshot load): writes a {@link ReducedBatch}, one
 * update per case, through the guarded {@link AssignmentWriter} in one transaction, and counts it.
 * <ul>
 *   <li>A failure of the database's state (PostgreSQL down, a deadlock, a serialization failure, a missing
 *       privilege…) is retried with the backoff it was given, until it commits or the caller gives up; each failed
 *       attempt is told to its {@link WriterHealth}. Only the write is retried: a failure once the transaction
 *       committed is thrown, never a reason to write the batch again.</li>
 *   <li>Rows PostgreSQL refuses for their data are found by {@link BatchIsolation} and returned, with the
 *       reason, for the caller to dead-letter; the rest of the batch is written. A refusal of any other SQLSTATE
 *       is retried with the same batch {@link #SAME_BATCH_ATTEMPTS} times, then isolated the same way while the
 *       table takes a write of no rows; a statement timeout shrinks the transactions
 *       ({@link DatabaseRejection#handling}, decision 27).</li>
 *   <li>Two events claiming one revision of a case with different assignments are counted and logged
 *       once with the case id: the first stays ({@link Outcome#CONFLICTING}) — those the reduction of a batch met
 *       ({@code stage=batch}: when the batch is written, or, for a batch gathered event by event, by its gatherer as
 *       each arrives, {@link #conflictInBatch}) and those the stored row met ({@code stage=database}).</li>
 * </ul>
 */
public final class BatchWriter {

    private static final Logger log = LoggerFactory.getLogger(BatchWriter.class);

    /**
     * Attempts at one batch that fail with a refusal that may be one row's before the batch is isolated: a
     * deadlock-like blip or a trigger reading a table being changed gets two more chances at the whole batch.
     */
    public static final int SAME_BATCH_ATTEMPTS = 3;

    /**
     * A batch written: what it changed, and the items PostgreSQL refused, in the order its reduction gave its kept items
     * (its {@code keptAsTheyCame}).
     */
    public record Written<T>(ApplyResult result, List<BatchIsolation.Refused<T>> refused) {
    }

    private final TransactionTemplate transaction;
    private final AssignmentWriter writer;
    private final WriteMetrics metrics;
    private final BackOff backOff;
    private final StopSignal giveUp;
    private final WriterHealth health;
    /** A dry run: every transaction is rolled back after the write, so the counts are real and nothing stays. */
    private final boolean rollBack;
    /**
     * A case whose projection row this writer last committed: a row the database took under today's checks, the one
     * the every-row probe rewrites ({@link #checkTakesARow}). None yet, no probe.
     */
    private final AtomicReference<UUID> lastCommitted = new AtomicReference<>();
    /** Rows per transaction, shrunk by statement timeouts: each thread's own (decision 48). */
    private final ThreadLocal<BatchIsolation.Chunks> chunks = ThreadLocal.withInitial(BatchIsolation.Chunks::adaptive);

    /**
     * @param backOff waits between attempts after a transient failure; when it stops, the failure is thrown
     * @param giveUp  checked after each failed attempt and before each transaction of an isolation: raised, the writer
     *                throws at once (the application stops), and no transaction more is begun
     * @param health  what the writing threads are doing, kept for a health check to read
     */
    public BatchWriter(TransactionTemplate transaction, AssignmentWriter writer, WriteMetrics metrics, BackOff backOff,
                       StopSignal giveUp, WriterHealth health) {
        this(transaction, writer, metrics, backOff, giveUp, health, false);
    }

    private BatchWriter(TransactionTemplate transaction, AssignmentWriter writer, WriteMetrics metrics, BackOff backOff,
                        StopSignal giveUp, WriterHealth health, boolean rollBack) {
        this.transaction = transaction;
        this.writer = writer;
        this.metrics = metrics;
        this.backOff = backOff;
        this.giveUp = giveUp;
        this.health = health;
        this.rollBack = rollBack;
    }

    /** A writer that does not retry: a transient failure is thrown (a command-line run stops and is resumed). */
    public static BatchWriter once(TransactionTemplate transaction, AssignmentWriter writer, WriteMetrics metrics) {
        return new BatchWriter(transaction, writer, metrics, new FixedBackOff(0, 0), new StopSignal(),
                WriterHealth.unwatched());
    }

    /** This writer, rolling every transaction back after the write (a dry run). */
    public BatchWriter rollingBack() {
        return new BatchWriter(transaction, writer, metrics, backOff, giveUp, health, true);
    }

    /**
     * Writes a reduced batch: its kept items, each case's set-aside items going into the history with it, in its
     * transaction; the projection's checks see the kept item alone. A case PostgreSQL refuses is then written again
     * one event at a time, in the order of its revisions, each in a transaction of its own, and only the events
     * refused alone are returned: the revisions before a refused one are written, not dropped with it (decision 48).
     */
    public <T> Written<T> write(ReducedBatch<T> batch) {
        batch.conflicts().forEach(dropped -> conflict(dropped, "batch"));
        if (batch.isEmpty()) {
            return new Written<>(ApplyResult.NONE, List.of());
        }
        health.began();
        try {
            return retried(batch);
        } finally {
            health.ended();
        }
    }

    private <T> Written<T> retried(ReducedBatch<T> batch) {
        BackOffExecution waits = null;
        int failedAttempts = 0;
        // What committed in attempts that failed later: a retry resumes after it, and the result counts it.
        BatchIsolation.Progress<ReducedBatch.Entry<T>> progress = new BatchIsolation.Progress<>();
        // Events written one at a time and decided (taken, or refused alone) in attempts that failed later: a retry
        // never writes them again, so a refused one stays refused and out of the history though the guard would skip it.
        Map<ReducedBatch.Entry<T>, BatchIsolation.Isolated<ReducedBatch.Entry<T>>> decidedAlone = new IdentityHashMap<>();
        while (true) {
            long start = System.nanoTime();
            // A refusal that may be one row's or the database's is isolated once the same batch failed a few times.
            boolean isolateAnyRefusal = failedAttempts >= SAME_BATCH_ATTEMPTS;
            BatchIsolation.Options options = new BatchIsolation.Options(isolateAnyRefusal,
                    this::checkWritable, chunks.get(), BatchIsolation.Options.LARGEST_BISECTED, giveUp::raised, this::checkTakesARow);
            BatchIsolation.Isolated<ReducedBatch.Entry<T>> isolated;
            try {
                isolated = BatchIsolation.apply(batch.kept(), ReducedBatch.Entry::update,
                        part -> oneTransaction(batch.part(part)), options, progress);
                isolated = eachOnItsOwn(batch, asTheyCame(batch, isolated), decidedAlone);
            } catch (RuntimeException e) {
                failedAttempts++;
                metrics.writeFailed();
                health.failed(e);
                if (giveUp.raised()) {
                    // asked to stop (the application stopping, a deadline): not one more transaction, isolation's neither
                    throw e;
                }
                if (waits == null) {
                    waits = backOff.start();
                }
                long wait = waits.nextBackOff();
                if (DatabaseRejection.mayBeTheNotifyQueue(e) && !rollBack) {
                    advanceNotifyQueue(e);
                }
                if (isolatesAfterRetries(e, failedAttempts)) {
                    // The isolation rule, the same for every writer: a refusal that may be a row's is tried again
                    // with the same batch, then isolated, also by a writer that gives up on the database's failures.
                    pause(wait == BackOffExecution.STOP ? 0 : wait, batch.events());
                    continue;
                }
                if (wait == BackOffExecution.STOP) {
                    throw e;
                }
                pause(wait, batch.events());
                continue;
            }
            // Committed: what follows is outside the retry, so that nothing after the commit writes the batch again.
            written(batch, isolated, Duration.ofNanos(System.nanoTime() - start));
            List<BatchIsolation.Refused<T>> refused = new ArrayList<>(isolated.refused().size());
            isolated.refused().forEach(r -> refused.add(new BatchIsolation.Refused<>(r.item().item(), r.rejection())));
            return new Written<>(isolated.result(), refused);
        }
    }

    /** Writes {@code part} in one transaction (rolled back in a dry run), recording it in the history. */
    private ApplyResult oneTransaction(ReducedBatch<?> part) {
        ApplyResult applied = inTransaction(() -> transaction.execute(status -> {
            ApplyResult written = writer.apply(part);
            if (rollBack) {
                status.setRollbackOnly();
            }
            return written;
        }));
        if (!rollBack) {
            Stream.concat(applied.insertedCases().stream(), applied.advancedCases().stream())
                    .reduce((first, last) -> last).ifPresent(lastCommitted::set);
        }
        return applied;
    }

    /**
     * The refused kept items in the order the reduction gave them ({@link ReducedBatch#keptAsTheyCame}; the batch is
     * written in the order of case ids).
     */
    private static <T> BatchIsolation.Isolated<ReducedBatch.Entry<T>> asTheyCame(ReducedBatch<T> batch,
            BatchIsolation.Isolated<ReducedBatch.Entry<T>> isolated) {
        if (isolated.refused().size() < 2) {
            return isolated;
        }
        Map<ReducedBatch.Entry<T>, Integer> position = new IdentityHashMap<>();
        List<ReducedBatch.Entry<T>> came = batch.keptAsTheyCame();
        for (int i = 0; i < came.size(); i++) {
            position.put(came.get(i), i);
        }
        List<BatchIsolation.Refused<ReducedBatch.Entry<T>>> refused = new ArrayList<>(isolated.refused());
        refused.sort(Comparator.comparingInt(r -> position.get(r.item())));
        return new BatchIsolation.Isolated<>(isolated.result(), refused);
    }

    /**
     * The cases PostgreSQL refused that had set-aside events, written again one event at a time in the order of their
     * revisions, each alone with its own history entry: what the database takes of them is written, and only the
     * events refused alone are returned in their case's place. An event the guard skips there (not newer than the row)
     * meets no check, as it would alone. An event {@code decided} holds (taken or refused in an attempt that failed
     * later) is not written again: its outcome stands.
     */
    private <T> BatchIsolation.Isolated<ReducedBatch.Entry<T>> eachOnItsOwn(ReducedBatch<T> batch,
            BatchIsolation.Isolated<ReducedBatch.Entry<T>> isolated,
            Map<ReducedBatch.Entry<T>, BatchIsolation.Isolated<ReducedBatch.Entry<T>>> decided) {
        if (!batch.hasSetAside()
                || isolated.refused().stream().allMatch(r -> batch.setAsideOf(r.item().update().caseId()).isEmpty())) {
            return isolated;
        }
        ApplyResult.Total total = new ApplyResult.Total();
        total.add(isolated.result());
        List<BatchIsolation.Refused<ReducedBatch.Entry<T>>> refused = new ArrayList<>();
        BatchIsolation.Options alone = new BatchIsolation.Options(true, this::checkWritable,
                BatchIsolation.Chunks.unlimited(), BatchIsolation.Options.LARGEST_BISECTED, giveUp::raised, this::checkTakesARow);
        for (BatchIsolation.Refused<ReducedBatch.Entry<T>> caseRefused : isolated.refused()) {
            List<ReducedBatch.Entry<T>> own = batch.setAsideOf(caseRefused.item().update().caseId());
            if (own.isEmpty()) {
                refused.add(caseRefused);
                continue;
            }
            List<ReducedBatch.Entry<T>> inOrder = new ArrayList<>(own);
            inOrder.add(caseRefused.item());
            inOrder.sort(Comparator.comparingLong(entry -> entry.update().revision())); // stable
            for (ReducedBatch.Entry<T> entry : inOrder) {
                BatchIsolation.Isolated<ReducedBatch.Entry<T>> one = decided.get(entry);
                if (one == null) {
                    if (giveUp.raised()) {
                        throw new BatchIsolation.Stopped(0, inOrder.size());
                    }
                    one = BatchIsolation.apply(List.of(entry), ReducedBatch.Entry::update,
                            part -> oneTransaction(ReducedBatch.alone(part.get(0))), alone);
                    decided.put(entry, one);
                }
                total.add(one.result());
                refused.addAll(one.refused());
            }
        }
        return new BatchIsolation.Isolated<>(total.result(), refused);
    }

    /**
     * Whether {@code failure} is a refusal that may be one row's and the batch has not yet been tried
     * {@link #SAME_BATCH_ATTEMPTS} times: then it is tried again, and isolated on the last attempt.
     */
    private static boolean isolatesAfterRetries(RuntimeException failure, int failedAttempts) {
        return DatabaseRejection.handling(failure) == DatabaseRejection.Handling.RETRY_THEN_ISOLATE
                && failedAttempts <= SAME_BATCH_ATTEMPTS;
    }

    /**
     * Throws what PostgreSQL throws for every row, before a row refused with {@code refusal} is set aside: the write
     * of no rows, in a transaction rolled back, then, for a {@code 54000} and not in a dry run, the NOTIFY probe in a
     * transaction committed (a full NOTIFY queue refuses that commit with 54000 whatever the rows).
     */
    private void checkWritable(RuntimeException refusal) {
        inTransaction(() -> {
            transaction.executeWithoutResult(status -> {
                writer.checkWritable();
                status.setRollbackOnly();
            });
            return null;
        });
        if (!rollBack && DatabaseRejection.mayBeTheNotifyQueue(refusal)) {
            inTransaction(() -> {
                transaction.executeWithoutResult(status -> writer.checkNotifies());
                return null;
            });
        }
    }

    /**
     * Throws what PostgreSQL throws for the row this writer last committed, rewritten with its own values in a
     * transaction rolled back ({@link AssignmentWriter#checkTakesARow}); false, with no probe, when this writer has
     * committed no row yet, when that row is of a refused case, or when it is gone or locked.
     */
    private boolean checkTakesARow(List<UUID> refusedCases) {
        UUID committed = lastCommitted.get();
        if (committed == null || refusedCases.contains(committed)) {
            return false;
        }
        return inTransaction(() -> transaction.execute(status -> {
            status.setRollbackOnly();
            return writer.checkTakesARow(committed);
        }));
    }

    /** After a {@code 54000}: moves the NOTIFY queue's tail, so that the next attempt finds the room listeners freed. */
    private void advanceNotifyQueue(RuntimeException failure) {
        try {
            writer.advanceNotifyQueue();
        } catch (RuntimeException unavailable) {
            failure.addSuppressed(unavailable);
        }
    }

    /** Runs one transaction and tells {@link WriterHealth} it ended, however it ended. */
    private <R> R inTransaction(Supplier<R> oneTransaction) {
        try {
            return oneTransaction.get();
        } finally {
            health.transactionEnded();
        }
    }

    /**
     * Counts and logs one event dropped from a batch being gathered because an earlier one of the batch holds its
     * case's revision with another assignment ({@code stage=batch}): called as the event arrives, so that the line
     * carries the log context of the record it came in.
     */
    public void conflictInBatch(AssignmentUpdate dropped) {
        conflict(dropped, "batch");
    }

    /**
     * Counts and logs one event dropped because its case already has its revision with another assignment:
     * {@code stage} {@code batch} when the first was in the same batch, {@code database} when it was stored.
     */
    private void conflict(AssignmentUpdate dropped, String stage) {
        metrics.conflicting(stage);
        // the line is about the dropped event, also when a later record's flush finds it: its trace, not that one's
        String previousTrace = MDC.get(AssignmentUpdate.TRACE_ID_LOG_FIELD);
        if (dropped.traceId() == null) {
            MDC.remove(AssignmentUpdate.TRACE_ID_LOG_FIELD);
        } else {
            MDC.put(AssignmentUpdate.TRACE_ID_LOG_FIELD, dropped.traceId());
        }
        try {
            log.warn("Case {}: two events claim revision {} with different assignments; the first one stays and this one "
                            + "(worker {}, supervisor {}) is dropped — upstream must not reuse a revision",
                    dropped.caseId(), dropped.revision(), dropped.assignedWorkerSub(), dropped.supervisorSub());
        } finally {
            if (previousTrace == null) {
                MDC.remove(AssignmentUpdate.TRACE_ID_LOG_FIELD);
            } else {
                MDC.put(AssignmentUpdate.TRACE_ID_LOG_FIELD, previousTrace);
            }
        }
    }

    private <T> void written(ReducedBatch<T> batch, BatchIsolation.Isolated<ReducedBatch.Entry<T>> isolated, Duration took) {
        ApplyResult result = isolated.result();
        metrics.batchApplied(batch.events() - isolated.refused().size(), result, took);
        Set<ReducedBatch.Entry<T>> refused = Collections.newSetFromMap(new IdentityHashMap<>());
        isolated.refused().forEach(r -> refused.add(r.item()));
        Map<UUID, Outcome> outcomes = result.outcomes();
        Instant committed = Instant.now();
        for (ReducedBatch.Entry<T> entry : batch.keptAsTheyCame()) {
            if (refused.contains(entry)) {
                continue;
            }
            if (outcomes.get(entry.update().caseId()) == Outcome.CONFLICTING) {
                conflict(entry.update(), "database");
            }
            if (entry.occurredAt() != null) {
                metrics.endToEndLag(Duration.between(entry.occurredAt(), committed));
            }
        }
        health.written(batch.events());
    }

    private static void pause(long millis, int events) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry a batch of " + events
                    + " events; its offsets stay uncommitted", e);
        }
    }
}
