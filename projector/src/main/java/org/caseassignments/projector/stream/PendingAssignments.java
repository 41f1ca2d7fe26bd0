package org.caseassignments.projector.stream;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.HeapBytes;
import org.caseassignments.store.ReducedBatch;

/**
 * A task's accepted events not yet in PostgreSQL: what is pending, when it is written, and the write. Its decoding
 * processor hands it each accepted event ({@link #add}); it keeps the newest per case by {@link BatchReduction}'s rule
 * (the higher revision; at an equal one the first event stays), each with the record it came in, and writes them in
 * one transaction through {@link Flusher#through the batch writer}. Held in memory only: after a crash the
 * uncommitted input is read again, and the guard makes applying it a second time harmless.
 *
 * <p><b>When the row is written.</b> Always before the offsets move past it (decision 7): it is a
 * {@link BeforeCommitHook}, so Kafka Streams runs {@link #beforeCommit()} before the task commits its input offsets,
 * and the commit waits until the batch's transaction committed. Between commits, {@link #check} (every
 * {@code checkEvery}) decides, sizing batches to the lag:
 * <ul>
 *   <li>while the events are live (the newest is at most {@code freshWithin} old), it writes the pending batch at
 *       each check without a commit ({@link #writeNow}): a live event reaches PostgreSQL within about that long. The
 *       offsets follow once the first batch written since the last commit is {@code liveCommitEvery} old: then it
 *       asks for a commit, so a live task pays one exactly-once commit per {@code liveCommitEvery} instead of one per
 *       check (decision 21);</li>
 *   <li>once the task has read its input to the end — its consumer has fetched everything its partitions hold
 *       ({@link Backlog}) and no event came for a whole check interval while the thread was free to process, that
 *       is not writing a batch — it asks for a commit: the end of a backlog of old events is written at once;</li>
 *   <li>if the consumer's position is not known, a task that received no event for {@code quietAfter} (while free
 *       to process) asks for a commit too;</li>
 *   <li>while the projector is behind, old events keep coming and it keeps gathering them, so a case that changed
 *       many times within a batch is written once: a check writes what is pending once the oldest of it was taken
 *       the batch's wait ago ({@link #writeNow}) and asks for a commit, so a backlog is written as it is read
 *       (decision 47). The wait is {@code writeWithin} for a backlog's first batch, then as long as the backlog had
 *       lasted when the batch's oldest event was taken (batches that grow), at most {@code backlogWaitAtMost}. Old
 *       events from a consumer with nothing left to fetch (a producer's clock behind) are written at
 *       {@code writeWithin}, their offsets following by the live rule. Kafka Streams commits at its commit interval
 *       anyway;</li>
 *   <li>{@link #add} writes at once ({@link #writeNow}) when what the task holds reaches its share of
 *       {@code maxPendingBytes} — the kept events and those set aside for the history, with their records
 *       ({@link Event#retainedBytes()}); the instance's processing tasks share the budget equally (standby and
 *       restoring tasks hold nothing and take no share), so together they hold at most about {@code maxPendingBytes}
 *       — and asks for a commit as soon as {@code maxPendingCases} cases are pending: memory is bounded by bytes as
 *       well as by cases.</li>
 * </ul>
 *
 * <p>Events PostgreSQL refuses go back to the decoding processor ({@link #attach}), which dead-letters them: sent by
 * the task's producer in the Kafka transaction of the offsets that move past them (decision 13).
 */
public final class PendingAssignments extends BeforeCommitHook {

    /** Says in the topology's description what the store stands for: the step that writes PostgreSQL. */
    public static final String NAME = "pending-assignments-written-to-postgresql-before-each-commit";

    /**
     * When to write and when to ask for a commit; see the class comment.
     *
     * @param backlogWaitAtMost the longest a backlog's batch gathers before it is written, however long the backlog
     */
    public record Pacing(Duration checkEvery, Duration freshWithin, Duration quietAfter, int maxPendingCases,
                         Duration liveCommitEvery, long maxPendingBytes, Duration writeWithin,
                         Duration backlogWaitAtMost) {

        public Pacing {
            if (maxPendingBytes < 1) {
                throw new IllegalArgumentException("max-pending-bytes must be at least 1 byte, was " + maxPendingBytes);
            }
        }
    }

    /** Whether a task's consumer has fetched everything its input partitions hold. */
    @FunctionalInterface
    public interface Backlog {

        /** Nothing is known: only the quiet rule ends a backlog. */
        Backlog UNKNOWN = partition -> false;

        /**
         * True only when the consumer's lag is known to be 0 on every input partition numbered {@code partition} (a
         * task reads the partitions of one number): what is left is in the task's own buffer.
         */
        boolean fetched(int partition);
    }

    /**
     * An accepted event waiting in its task's batch, with the record it came in: if PostgreSQL refuses it, that
     * record is dead-lettered as it arrived (key, value, headers, where from). The event kept for its case and those it
     * replaced at lower revisions are held (the latter for the projection's checks and the history); a second event
     * at the kept revision is dropped.
     *
     * @param occurredAt when the event happened upstream, for the end-to-end lag (null when unknown)
     */
    public record Event(AssignmentUpdate update, Instant occurredAt, SourceRecord record) {

        /** The event's object, its update's, the case id's and when it happened. */
        private static final long OBJECTS = HeapBytes.object(3, 0) + HeapBytes.object(6, 8) + HeapBytes.object(0, 16);
        private static final long INSTANT = HeapBytes.object(0, 8 + 4);

        /**
         * About how much heap holding this event keeps ({@link HeapBytes}): its objects, its update's strings, and
         * its record's ({@link SourceRecord#retainedBytes}), headers included. With the pending table's own
         * ({@link BatchReduction.NewestPerCase#footprint}), what the byte budget counts.
         */
        long retainedBytes() {
            AssignmentUpdate u = update;
            return OBJECTS + (occurredAt == null ? 0 : INSTANT) + HeapBytes.of(u.assignedWorkerSub())
                    + HeapBytes.of(u.supervisorSub()) + HeapBytes.of(u.jurisdiction()) + HeapBytes.of(u.traceId())
                    + record.retainedBytes();
        }

        /** An event without its record (tests, and callers that never dead-letter). */
        public static Event of(AssignmentUpdate update, long timestamp) {
            return new Event(update, null, SourceRecord.at(timestamp));
        }
    }

    /**
     * Writes one reduced batch, retrying transient failures until it committed. Returns the events PostgreSQL refused
     * (the rest is written).
     */
    @FunctionalInterface
    public interface Flusher {

        /**
         * @param batch the kept event of each pending case, and the events newer ones replaced, in the order they
         *              came, with their records: each goes into its case's history with the kept event, or, when
         *              PostgreSQL refuses its case, is written on its own and, if refused alone, dead-lettered as it came
         */
        List<BatchIsolation.Refused<Event>> apply(ReducedBatch<Event> batch);

        /**
         * Counts and logs an event dropped as it arrives because an earlier one of the batch claims its case's revision
         * with another assignment; called in the log context of the dropped event's record. None in a flusher made of
         * {@link #apply} alone (tests).
         */
        default void conflicting(AssignmentUpdate dropped) {
        }

        /** The one in use: the store's batch writer, which writes through its guarded {@code AssignmentWriter}. */
        static Flusher through(BatchWriter writer) {
            return new Flusher() {
                @Override
                public List<BatchIsolation.Refused<Event>> apply(ReducedBatch<Event> batch) {
                    return writer.write(batch).refused();
                }

                @Override
                public void conflicting(AssignmentUpdate dropped) {
                    writer.conflictInBatch(dropped);
                }
            };
        }
    }

    /** When this stream thread last finished writing a batch (any of its tasks'), in epoch milliseconds. */
    private static final ThreadLocal<long[]> LAST_FLUSH_ENDED = ThreadLocal.withInitial(() -> new long[1]);

    private final Flusher flusher;
    private final UncommittedWork work;
    private final Pacing pacing;
    private final Backlog backlog;
    /**
     * The kept event of each case, and, in the order they came, with their records, the events it set aside: they go
     * into the history with their case's kept event, and when PostgreSQL refuses that case they are written on their
     * own, dead-lettered if refused alone (decision 48).
     */
    private final BatchReduction.NewestPerCase<Event> byCase = new BatchReduction.NewestPerCase<>();
    private ProcessorContext<?, ?> context;
    private Consumer<List<BatchIsolation.Refused<Event>>> refusedRoute;
    private UncommittedWork.Task task;
    /** What the events {@link #byCase} holds keep, as {@link Event#retainedBytes} counts. */
    private long eventBytes;
    /** When the oldest pending event was taken (the stream thread's wall-clock time), or 0. */
    private long firstTakenAt;
    /**
     * When the oldest event of the backlog being written was taken; 0 when none is: back to 0 once the task is live,
     * its consumer has nothing left to fetch, it read its input to the end, or its checks found nothing pending for
     * {@code quietAfter}.
     */
    private long backlogSince;
    /** When a check first found nothing pending since the last event taken, or 0. */
    private long emptySince;
    /** Whether this batch asked its consumer's lag already (at most once a batch: reading the metrics is not free). */
    private boolean lagAsked;
    private long uncommittedWriteAt;
    private long lastEventAt;
    private long newestTimestamp = Long.MIN_VALUE;
    private boolean open;
    /** Whether this instance takes a share of the byte budget: from {@link #attach} until {@link #detach} or close. */
    private boolean processing;

    PendingAssignments(Flusher flusher, UncommittedWork work, Pacing pacing, Backlog backlog) {
        this.flusher = flusher;
        this.work = work;
        this.pacing = pacing;
        this.backlog = backlog;
    }

    /** The store for a topology; each task gets its own instance. */
    public static StoreBuilder<PendingAssignments> builder(Flusher flusher, UncommittedWork work, Pacing pacing,
                                                           Backlog backlog) {
        return new Builder(flusher, work, pacing, backlog);
    }

    /**
     * Called from the init of the processor that feeds it (connected to {@link #NAME}): the checks are scheduled on
     * that processor's context, and the events PostgreSQL refuses go to {@code refusedRoute}, which dead-letters them.
     */
    public void attach(ProcessorContext<?, ?> context, Consumer<List<BatchIsolation.Refused<Event>>> refusedRoute) {
        this.context = context;
        this.refusedRoute = refusedRoute;
        context.schedule(pacing.checkEvery(), PunctuationType.WALL_CLOCK_TIME, this::check);
        if (!processing) {
            processing = true;
            work.startedProcessing();
        }
    }

    /**
     * Called from the close of the processor that feeds it (the task closes, or becomes a standby and keeps its stores):
     * it no longer takes a share of the byte budget.
     */
    public void detach() {
        if (processing) {
            processing = false;
            work.stoppedProcessing();
        }
    }

    /**
     * An accepted event, with the record it came in. Writes the batch at once when what it holds reaches its share of
     * the byte budget, and asks for a commit once it holds as many cases as allowed.
     */
    public void add(Event event) {
        emptySince = 0;
        BatchReduction.NewestPerCase.Added added = byCase.add(event, event.update(), event.occurredAt());
        if (added == BatchReduction.NewestPerCase.Added.HELD) {
            // Kept, or set aside with its record as the history of its case (decision 47): its bytes count. One dropped
            // at its case's kept revision is not held: the kept one came first at that revision, and the first payload
            // of a revision is its entry, as in the projection.
            eventBytes += event.retainedBytes();
        }
        if (added == BatchReduction.NewestPerCase.Added.CONFLICTING) {
            // reported now, while the dropped event's record names the log line (decision 35)
            flusher.conflicting(event.update());
        }
        lastEventAt = context.currentSystemTimeMs();
        if (firstTakenAt == 0) {
            firstTakenAt = lastEventAt;
        }
        long bytes = heldBytes();
        task.taken(byCase.size(), bytes);
        newestTimestamp = Math.max(newestTimestamp, event.record().timestamp());
        if (bytes >= shareOfTheBudget()) {
            writeNow(lastEventAt);
        } else if (byCase.size() >= pacing.maxPendingCases()) {
            context.commit();
        }
    }

    /** Every {@code checkEvery}: write live events now, or ask for a commit; see the class comment. */
    private void check(long now) {
        task.confirmed(); // punctuated: whatever the task wrote before was committed
        long idle = now - Math.max(lastEventAt, lastFlushEndedOnThisThread());
        boolean quiet = idle >= pacing.quietAfter().toMillis();
        if (byCase.isEmpty()) {
            // A backlog that ended with a write: the next one starts small again once this task's checks have found
            // nothing pending for quietAfter. Counted from its first such check, so the write that emptied it (about
            // as long as a drain's batch) is not taken for a quiet spell; a write of another task of the thread after
            // that check still is (a reset only makes the next batches small again).
            if (emptySince == 0) {
                emptySince = now;
            } else if (now - emptySince >= pacing.quietAfter().toMillis()) {
                backlogSince = 0;
            }
        } else if (newestTimestamp >= now - pacing.freshWithin().toMillis()) {
            backlogSince = 0;
            writeNow(now);
        } else {
            // Kafka Streams processes buffered records between checks, so a task idle for a whole check
            // interval whose consumer has fetched everything has read it all (were it not so, committing
            // now would only make this batch smaller).
            if (quiet || idle >= pacing.checkEvery().toMillis() && backlog.fetched(context.taskId().partition())) {
                backlogSince = 0;
                context.commit();
                return;
            }
            long age = now - firstTakenAt;
            if (age >= pacing.writeWithin().toMillis()) {
                if (!lagAsked) {
                    // Once per batch: old events from a consumer with nothing left to fetch are a producer's clock
                    // behind, not a backlog; they are written as live ones are. Otherwise a backlog starts here.
                    lagAsked = true;
                    if (backlog.fetched(context.taskId().partition())) {
                        backlogSince = 0;
                    } else if (backlogSince == 0) {
                        backlogSince = firstTakenAt;
                    }
                }
                if (backlogSince == 0) {
                    writeNow(now);
                } else if (age >= backlogWait()) {
                    // A backlog is written as it is read, in batches that grow; the offsets follow at once, so no
                    // commit of the live rule cuts the next batch short.
                    writeNow(now);
                    context.commit();
                    return;
                }
            }
            if (!byCase.isEmpty() && heldBytes() >= shareOfTheBudget()) {
                // A task began processing on the instance since this task's last event, and made its share smaller
                // than what it holds: written as add writes at its share, the offsets following by the live rule.
                writeNow(now);
            }
        }
        if (uncommittedWriteAt != 0 && now - uncommittedWriteAt >= pacing.liveCommitEvery().toMillis()) {
            context.commit();
        }
    }

    /**
     * How long the pending batch of a backlog gathers: as long as the backlog had lasted when its oldest event was
     * taken, so each batch is about as long as all before it, at most {@code backlogWaitAtMost}; never less than
     * {@code writeWithin}.
     */
    private long backlogWait() {
        return Math.max(pacing.writeWithin().toMillis(),
                Math.min(firstTakenAt - backlogSince, pacing.backlogWaitAtMost().toMillis()));
    }

    /** This task's share of {@code maxPendingBytes}: the budget divided among the instance's processing tasks. */
    private long shareOfTheBudget() {
        return Math.max(1, pacing.maxPendingBytes() / work.processingTasks());
    }

    /** What the pending batch keeps on the heap: its events and its table ({@link BatchReduction.NewestPerCase#footprint}). */
    long heldBytes() {
        return eventBytes + byCase.footprint();
    }

    /** Distinct cases pending. */
    int cases() {
        return byCase.size();
    }

    boolean isEmpty() {
        return byCase.isEmpty();
    }

    /**
     * Writes everything pending in one transaction now, ahead of the commit that will move the offsets past it:
     * the task's next commit (whose {@link #beforeCommit()} writes whatever came since).
     *
     * @param now the stream thread's wall-clock time, epoch milliseconds
     */
    void writeNow(long now) {
        if (write()) {
            task.written();
            if (uncommittedWriteAt == 0) {
                uncommittedWriteAt = now;
            }
        }
    }

    /** When the first batch written since the last prepared commit was written ({@link #writeNow}), or 0. */
    long uncommittedWriteAt() {
        return uncommittedWriteAt;
    }

    /** Writes everything pending in one transaction; called by Kafka Streams before it commits the offsets. */
    @Override
    protected void beforeCommit() {
        write();
        uncommittedWriteAt = 0;
        task.flushed();
    }

    /** Writes the batch and dead-letters what PostgreSQL refused; false when nothing was pending. */
    private boolean write() {
        if (byCase.isEmpty()) {
            return false;
        }
        List<BatchIsolation.Refused<Event>> refused = flusher.apply(byCase.batch());
        if (!refused.isEmpty()) {
            if (refusedRoute == null) {
                throw new IllegalStateException(refused.size() + " events refused by PostgreSQL and no dead-letter route; "
                        + "the batch's offsets stay uncommitted");
            }
            refusedRoute.accept(refused);
        }
        clear();
        LAST_FLUSH_ENDED.get()[0] = System.currentTimeMillis();
        return true;
    }

    private void clear() {
        byCase.clear();
        eventBytes = 0;
        firstTakenAt = 0;
        lagAsked = false;
    }

    /** Nothing is pending and no backlog is being written: a new task instance's state. */
    private void reset() {
        clear();
        uncommittedWriteAt = 0;
        backlogSince = 0;
        emptySince = 0;
    }

    /** When the calling stream thread last finished writing a batch: it processed nothing while it wrote. */
    static long lastFlushEndedOnThisThread() {
        return LAST_FLUSH_ENDED.get()[0];
    }

    /** Kafka Streams discards a task's uncommitted work (its input is read again): so does this. */
    @Override
    protected void discardUncommitted() {
        reset();
        task.discarded();
    }

    /**
     * Called when the task checkpoints, after a commit, with nothing pending by then (writing early would be
     * harmless anyway): the last write was committed.
     */
    @Override
    public void flush() {
        beforeCommit();
        task.confirmed();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        // Nothing to restore: what was pending at a crash is read again from the uncommitted input.
        context.register(root, (key, value) -> { });
        task = work.open(context.taskId().toString());
        open = true;
    }

    @Override
    public void close() {
        detach();
        reset();
        if (task != null) {
            work.close(task);
        }
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    private record Builder(Flusher flusher, UncommittedWork work, Pacing pacing, Backlog backlog)
            implements StoreBuilder<PendingAssignments> {

        @Override
        public StoreBuilder<PendingAssignments> withCachingEnabled() {
            throw new UnsupportedOperationException(NAME + " is its own buffer");
        }

        @Override
        public StoreBuilder<PendingAssignments> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<PendingAssignments> withLoggingEnabled(Map<String, String> config) {
            throw new UnsupportedOperationException(NAME + " has no changelog: PostgreSQL is its durable copy");
        }

        @Override
        public StoreBuilder<PendingAssignments> withLoggingDisabled() {
            return this;
        }

        @Override
        public PendingAssignments build() {
            return new PendingAssignments(flusher, work, pacing, backlog);
        }

        @Override
        public Map<String, String> logConfig() {
            return Map.of();
        }

        @Override
        public boolean loggingEnabled() {
            return false;
        }

        @Override
        public String name() {
            return NAME;
        }
    }
}
