package org.caseassignments.ingest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.DatabaseRejection;
import org.caseassignments.store.Outcome;
import org.caseassignments.store.SeenRevision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.FixedBackOff;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one batch writer (projector, replay and snapshot load): writes a batch of updates, one per case, through the guarded {@link AssignmentWriter} in one transaction, and counts it.
 * <ul>
 *   <li>A failure of the database's state (PostgreSQL down, a deadlock, a serialization failure, a missing
 *       privilege…) is retried with the backoff it was given, reporting each failed attempt, until it commits or
 *       the caller gives up. Only the write is retried: a failure once the transaction committed (counting it,
 *       telling {@link Attempts#written}) is thrown, never a reason to write the batch again.</li>
 *   <li>Rows PostgreSQL refuses for their data are found by {@link BatchIsolation} and returned, with the
 *       reason, for the caller to dead-letter; the rest of the batch is written. A refusal of any other SQLSTATE
 *       is retried with the same batch {@link #SAME_BATCH_ATTEMPTS} times, then isolated the same way while the
 *       table takes a write of no rows; a statement timeout shrinks the transactions
 *       ({@link DatabaseRejection#handling}, decision 27).</li>
 *   <li>Two events claiming one revision of a case with different assignments are counted and logged
 *       once with the case id: the first stays ({@link Outcome#CONFLICTING}).</li>
 * </ul>
 */
public final class BatchWriter {

    private static final Logger log = LoggerFactory.getLogger(BatchWriter.class);

    /**
     * Attempts at one batch that fail with a refusal that may be one row's before the batch is isolated: a
     * deadlock-like blip or a trigger reading a table being changed gets two more chances at the whole batch.
     */
    static final int SAME_BATCH_ATTEMPTS = 3;

    /** Told about each attempt, for health. */
    public interface Attempts {

        Attempts IGNORED = new Attempts() {
        };

        /** A transient failure; the batch will be tried again unless the writer gives up. */
        default void failed(RuntimeException error) {
        }

        /** The batch committed (its refused rows set aside). */
        default void written(int events) {
        }

        /**
         * One transaction of the batch ended, committed or rolled back: an attempt may take many (halves, bisection,
         * the check that the table takes writes), each bounded on its own.
         */
        default void transactionEnded() {
        }
    }

    /** A batch written: what it changed, and the items PostgreSQL refused. */
    public record Written<T>(ApplyResult result, List<BatchIsolation.Refused<T>> refused) {
    }

    private final TransactionTemplate transaction;
    private final AssignmentWriter writer;
    private final IngestMetrics metrics;
    private final BackOff backOff;
    private final BooleanSupplier giveUp;
    private final Attempts attempts;
    /** A dry run: every transaction is rolled back after the write, so the counts are real and nothing stays. */
    private final boolean rollBack;
    /** Rows per transaction, shrunk by statement timeouts: each thread's own (decision 48). */
    /**
     * A case whose projection row this writer last committed: a row the database took under today's checks, the one
     * the every-row probe rewrites ({@link #checkTakesARow}). None yet, no probe.
     */
    private final AtomicReference<UUID> lastCommitted = new AtomicReference<>();
    private final ThreadLocal<BatchIsolation.Chunks> chunks = ThreadLocal.withInitial(BatchIsolation.Chunks::adaptive);

    /**
     * @param backOff  waits between attempts after a transient failure; when it stops, the failure is thrown
     * @param giveUp   checked after each failed attempt and before each transaction of an isolation: true throws at
     *                 once (the application stops), and no transaction more is begun
     * @param attempts told about each attempt
     */
    public BatchWriter(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics, BackOff backOff,
                       BooleanSupplier giveUp, Attempts attempts) {
        this(transaction, writer, metrics, backOff, giveUp, attempts, false);
    }

    private BatchWriter(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics, BackOff backOff,
                        BooleanSupplier giveUp, Attempts attempts, boolean rollBack) {
        this.transaction = transaction;
        this.writer = writer;
        this.metrics = metrics;
        this.backOff = backOff;
        this.giveUp = giveUp;
        this.attempts = attempts;
        this.rollBack = rollBack;
    }

    /** A writer that does not retry: a transient failure is thrown (a command-line run stops and is resumed). */
    public static BatchWriter once(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics) {
        return new BatchWriter(transaction, writer, metrics, new FixedBackOff(0, 0), () -> false, Attempts.IGNORED);
    }

    /** This writer, rolling every transaction back after the write (a dry run). */
    public BatchWriter rollingBack() {
        return new BatchWriter(transaction, writer, metrics, backOff, giveUp, attempts, true);
    }

    /**
     * Writes a list of updates, reduced to one per case first (the first of two at an equal revision stays,
     * and the second is reported as a conflict).
     */
    public Written<AssignmentUpdate> write(List<AssignmentUpdate> updates) {
        return writeEach(updates, Function.identity(), update -> null);
    }

    /**
     * Writes items as they were read, reduced to one per case first, as {@link #write(List)}; a kept item is
     * written with the update {@link BatchReduction#keep} made of it (which may carry a jurisdiction an item it
     * replaced carried). Every item's revision goes into its case's history, also those the reduction set aside.
     */
    public <T> Written<T> writeEach(List<T> items, Function<T, AssignmentUpdate> update, Function<T, Instant> occurredAt) {
        Map<T, AssignmentUpdate> reduced = new IdentityHashMap<>();
        List<T> setAside = new ArrayList<>();
        List<BatchReduction.Kept<T>> kept = BatchReduction.perCase(items, update, (first, candidate) -> {
            if (BatchReduction.conflicting(first, candidate)) {
                conflict(metrics, candidate, "batch");
            }
        }, dropped -> {
            reduced.put(dropped.item(), dropped.update());
            setAside.add(dropped.item());
        });
        List<T> survivors = new ArrayList<>(kept.size());
        kept.forEach(k -> {
            reduced.put(k.item(), k.update());
            survivors.add(k.item());
        });
        return write(survivors, reduced::get, occurredAt, items.size(), setAside);
    }

    /**
     * Writes items already reduced to one per case.
     *
     * @param update     each item's update
     * @param occurredAt when each item's event happened upstream (null when unknown), for the end-to-end lag
     * @param events     how many events the items stand for (the rest were superseded in the batch)
     */
    public <T> Written<T> write(List<T> items, Function<T, AssignmentUpdate> update, Function<T, Instant> occurredAt,
                                int events) {
        return write(items, update, occurredAt, events, List.of());
    }

    /**
     * As {@link #write(List, Function, Function, int)}, with {@code setAside}: items of the items' cases that a
     * reduction before this writer dropped, in the order they came ({@code update} and {@code occurredAt} take them
     * too). They go into the history with their case's kept item, in its transaction; the projection's checks see the
     * kept item alone. A case PostgreSQL refuses is then written again one event at a time, in the order of its
     * revisions, each in a transaction of its own, and only the events refused alone are returned: the revisions
     * before a refused one are written, not dropped with it (decision 48).
     */
    public <T> Written<T> write(List<T> items, Function<T, AssignmentUpdate> update, Function<T, Instant> occurredAt,
                                int events, List<T> setAside) {
        if (items.isEmpty()) {
            return new Written<>(ApplyResult.NONE, List.of());
        }
        Map<AssignmentUpdate, Instant> occurred = new IdentityHashMap<>(items.size() + setAside.size());
        items.forEach(item -> occurred.put(update.apply(item), occurredAt.apply(item)));
        Map<UUID, List<T>> setAsideByCase = new HashMap<>();
        setAside.forEach(item -> {
            AssignmentUpdate u = update.apply(item);
            occurred.put(u, occurredAt.apply(item));
            setAsideByCase.computeIfAbsent(u.caseId(), c -> new ArrayList<>()).add(item);
        });
        BackOffExecution waits = null;
        int failedAttempts = 0;
        // What committed in attempts that failed later: a retry resumes after it, and the result counts it.
        BatchIsolation.Progress<T> progress = new BatchIsolation.Progress<>();
        // Events written one at a time and decided (taken, or refused alone) in attempts that failed later: a retry
        // never writes them again, so a refused one stays refused and out of the history though the guard would skip it.
        Map<T, BatchIsolation.Isolated<T>> decidedAlone = new IdentityHashMap<>();
        while (true) {
            long start = System.nanoTime();
            // A refusal that may be one row's or the database's is isolated once the same batch failed a few times.
            boolean isolateAnyRefusal = failedAttempts >= SAME_BATCH_ATTEMPTS;
            BatchIsolation.Options options = new BatchIsolation.Options(isolateAnyRefusal,
                    this::checkWritable, chunks.get(), BatchIsolation.Options.LARGEST_BISECTED, giveUp, this::checkTakesARow);
            BatchIsolation.Isolated<T> isolated;
            try {
                isolated = BatchIsolation.apply(items, update,
                        updates -> oneTransaction(seen(updates, occurred, setAsideByCase, update)), options, progress);
                isolated = eachOnItsOwn(isolated, update, occurred, setAsideByCase, decidedAlone);
            } catch (RuntimeException e) {
                failedAttempts++;
                metrics.writeFailed();
                attempts.failed(e);
                if (giveUp.getAsBoolean()) {
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
                    pause(wait == BackOffExecution.STOP ? 0 : wait, events);
                    continue;
                }
                if (wait == BackOffExecution.STOP) {
                    throw e;
                }
                pause(wait, events);
                continue;
            }
            // Committed: what follows is outside the retry, so that nothing after the commit writes the batch again.
            written(items, update, occurredAt, events, isolated, Duration.ofNanos(System.nanoTime() - start));
            return new Written<>(isolated.result(), isolated.refused());
        }
    }

    /** Writes {@code seen}'s updates in one transaction (rolled back in a dry run), recording them all in the history. */
    private ApplyResult oneTransaction(Seen seen) {
        ApplyResult applied = inTransaction(() -> transaction.execute(status -> {
            ApplyResult written = writer.apply(seen.updates(), seen.history());
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
     * The cases PostgreSQL refused that had set-aside events, written again one event at a time in the order of their
     * revisions, each alone with its own history entry: what the database takes of them is written, and only the
     * events refused alone are returned in their case's place. An event the guard skips there (not newer than the row)
     * meets no check, as it would alone. An event {@code decided} holds (taken or refused in an attempt that failed
     * later) is not written again: its outcome stands.
     */
    private <T> BatchIsolation.Isolated<T> eachOnItsOwn(BatchIsolation.Isolated<T> isolated, Function<T, AssignmentUpdate> update,
                                                     Map<AssignmentUpdate, Instant> occurred,
                                                     Map<UUID, List<T>> setAsideByCase,
                                                     Map<T, BatchIsolation.Isolated<T>> decided) {
        if (setAsideByCase.isEmpty()
                || isolated.refused().stream().noneMatch(r -> setAsideByCase.containsKey(update.apply(r.item()).caseId()))) {
            return isolated;
        }
        ApplyResult.Total total = new ApplyResult.Total();
        total.add(isolated.result());
        List<BatchIsolation.Refused<T>> refused = new ArrayList<>();
        BatchIsolation.Options alone = new BatchIsolation.Options(true, this::checkWritable,
                BatchIsolation.Chunks.unlimited(), BatchIsolation.Options.LARGEST_BISECTED, giveUp, this::checkTakesARow);
        for (BatchIsolation.Refused<T> caseRefused : isolated.refused()) {
            List<T> own = setAsideByCase.get(update.apply(caseRefused.item()).caseId());
            if (own == null) {
                refused.add(caseRefused);
                continue;
            }
            List<T> inOrder = new ArrayList<>(own);
            inOrder.add(caseRefused.item());
            inOrder.sort(Comparator.<T>comparingLong(item -> update.apply(item).revision())); // stable
            for (T item : inOrder) {
                BatchIsolation.Isolated<T> one = decided.get(item);
                if (one == null) {
                    if (giveUp.getAsBoolean()) {
                        throw new BatchIsolation.Stopped(0, inOrder.size());
                    }
                    one = BatchIsolation.apply(List.of(item), update,
                            updates -> oneTransaction(new Seen(updates,
                                    List.of(new SeenRevision(updates.get(0), occurred.get(updates.get(0)))))), alone);
                    decided.put(item, one);
                }
                total.add(one.result());
                refused.addAll(one.refused());
            }
        }
        return new BatchIsolation.Isolated<>(total.result(), refused);
    }

    /** The updates of one transaction, and what goes into the history with them. */
    private record Seen(List<AssignmentUpdate> updates, List<SeenRevision> history) {
    }

    /**
     * Whether {@code failure} is a refusal that may be one row's and the batch has not yet been tried
     * {@link #SAME_BATCH_ATTEMPTS} times: then it is tried again, and isolated on the last attempt.
     */
    private static boolean isolatesAfterRetries(RuntimeException failure, int failedAttempts) {
        return DatabaseRejection.handling(failure) == DatabaseRejection.Handling.RETRY_THEN_ISOLATE
                && failedAttempts <= SAME_BATCH_ATTEMPTS;
    }

    /** The updates being written with when each occurred, and what was set aside for their cases. */
    private static <T> Seen seen(List<AssignmentUpdate> updates, Map<AssignmentUpdate, Instant> occurred,
                                 Map<UUID, List<T>> setAsideByCase, Function<T, AssignmentUpdate> update) {
        List<SeenRevision> seen = new ArrayList<>(updates.size());
        for (AssignmentUpdate u : updates) {
            seen.add(new SeenRevision(u, occurred.get(u)));
        }
        if (!setAsideByCase.isEmpty()) {
            for (AssignmentUpdate u : updates) {
                for (T item : setAsideByCase.getOrDefault(u.caseId(), List.of())) {
                    AssignmentUpdate earlier = update.apply(item);
                    seen.add(new SeenRevision(earlier, occurred.get(earlier)));
                }
            }
        }
        return new Seen(updates, seen);
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

    /** Runs one transaction and tells {@link Attempts} it ended, however it ended. */
    private <R> R inTransaction(java.util.function.Supplier<R> oneTransaction) {
        try {
            return oneTransaction.get();
        } finally {
            attempts.transactionEnded();
        }
    }

    /**
     * Counts and logs one event dropped because its case already has its revision with another assignment:
     * {@code stage} {@code batch} when the first was in the same batch, {@code database} when it was stored.
     */
    public static void conflict(IngestMetrics metrics, AssignmentUpdate dropped, String stage) {
        metrics.conflicting(stage);
        // the line is about the dropped event, also when a later record's flush finds it: its trace, not that one's
        String previousTrace = MDC.get(TraceParent.MDC_KEY);
        if (dropped.traceId() == null) {
            MDC.remove(TraceParent.MDC_KEY);
        } else {
            MDC.put(TraceParent.MDC_KEY, dropped.traceId());
        }
        try {
            log.warn("Case {}: two events claim revision {} with different assignments; the first one stays and this one "
                            + "(worker {}, supervisor {}) is dropped — upstream must not reuse a revision",
                    dropped.caseId(), dropped.revision(), dropped.assignedWorkerSub(), dropped.supervisorSub());
        } finally {
            if (previousTrace == null) {
                MDC.remove(TraceParent.MDC_KEY);
            } else {
                MDC.put(TraceParent.MDC_KEY, previousTrace);
            }
        }
    }

    private <T> void written(List<T> items, Function<T, AssignmentUpdate> update, Function<T, Instant> occurredAt,
                             int events, BatchIsolation.Isolated<T> isolated, Duration took) {
        ApplyResult result = isolated.result();
        metrics.batchApplied(events - isolated.refused().size(), result, took);
        Set<T> refused = Collections.newSetFromMap(new IdentityHashMap<>());
        isolated.refused().forEach(r -> refused.add(r.item()));
        Map<UUID, Outcome> outcomes = result.outcomes();
        Instant committed = Instant.now();
        for (T item : items) {
            if (refused.contains(item)) {
                continue;
            }
            AssignmentUpdate u = update.apply(item);
            if (outcomes.get(u.caseId()) == Outcome.CONFLICTING) {
                conflict(metrics, u, "database");
            }
            Instant at = occurredAt.apply(item);
            if (at != null) {
                metrics.endToEndLag(Duration.between(at, committed));
            }
        }
        attempts.written(events);
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
