package org.caseassignments.projector.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.SeenRevision;

/**
 * A task's accepted events not yet in PostgreSQL, reduced to one per case by {@link BatchReduction}'s rule
 * (the higher revision; at an equal one the first event stays) in a {@link NewestPerCase}, each with the record
 * it came in. Held in memory only: after a crash the uncommitted input is read again, and the guard makes
 * applying it a second time harmless.
 *
 * <p><b>When it writes.</b> It is a {@link BeforeCommitHook}: Kafka Streams runs {@link #beforeCommit()} before
 * the task commits its input offsets, and it writes the pending batch there, returning only once the transaction
 * committed, so an input offset never moves past an event the database does not have (decision 7). Events
 * PostgreSQL refuses are handed to the task's dead-letter route there too, so their dead letters are sent by the
 * task's producer in the same Kafka transaction as the offsets that move past them.
 *
 * <p>While events are live the batch is also written between commits, by {@link #writeNow(long)} (decision
 * 21): the write only comes earlier than the commit, so the order still holds; the offsets, and the dead
 * letters of what PostgreSQL refused (sent in the task's open transaction), commit at the next commit.
 */
public final class PendingAssignments extends BeforeCommitHook {

    /**
     * Writes one reduced batch, retrying transient failures until it committed; {@code events} counts the
     * events it stands for. Returns the events PostgreSQL refused (the rest is written). The one in use is
     * {@link SinkConfiguration}'s: ingest's {@code BatchWriter.write}, which goes on to the store's
     * {@code AssignmentWriter}.
     */
    @FunctionalInterface
    public interface Flusher {
        /** @param setAside the revisions of pending cases that newer ones replaced, for the cases' history */
        List<BatchIsolation.Refused<PendingEvent>> apply(List<PendingEvent> pending, List<SeenRevision> setAside,
                                                         int events);
    }

    /** Says in the topology's description what the store stands for: the step that writes PostgreSQL. */
    public static final String NAME = "pending-assignments-written-to-postgresql-before-each-commit";

    /** When this stream thread last finished writing a batch (any of its tasks'), in epoch milliseconds. */
    private static final ThreadLocal<long[]> LAST_FLUSH_ENDED = ThreadLocal.withInitial(() -> new long[1]);

    private final Flusher flusher;
    private final UncommittedWork work;
    private final NewestPerCase<PendingEvent> byCase;
    /** Only the update and its time of what {@link #byCase} sets aside: the record itself is never needed again. */
    private final List<SeenRevision> setAside = new ArrayList<>();
    private Consumer<List<BatchIsolation.Refused<PendingEvent>>> refusedRoute;
    private UncommittedWork.Task task;
    private int events;
    private long bytes;
    private long uncommittedWriteAt;
    private boolean open;

    PendingAssignments(Flusher flusher, UncommittedWork work, BatchConflicts conflicts) {
        this.flusher = flusher;
        this.work = work;
        this.byCase = new NewestPerCase<>(PendingEvent::update, PendingEvent::withUpdate,
                (kept, dropped) -> conflicts.dropped(dropped.update()));
    }

    /**
     * The store for a topology; each task gets its own instance.
     *
     * @param conflicts told about each event dropped because its case's kept event has its revision with
     *                  another assignment
     */
    public static StoreBuilder<PendingAssignments> builder(Flusher flusher, UncommittedWork work,
                                                           BatchConflicts conflicts) {
        return new Builder(flusher, work, conflicts);
    }

    /** Told about each event dropped in a batch because its case already has its revision with another assignment. */
    @FunctionalInterface
    public interface BatchConflicts {
        void dropped(AssignmentUpdate update);
    }

    /** Where the events PostgreSQL refuses go: the owning processor dead-letters them. */
    public void routeRefusedTo(Consumer<List<BatchIsolation.Refused<PendingEvent>>> route) {
        this.refusedRoute = route;
    }

    void add(PendingEvent event) {
        PendingEvent dropped = byCase.add(event);
        bytes += event.retainedBytes() - (dropped == null ? 0 : dropped.retainedBytes());
        if (dropped != null) {
            // its revision is still history (at the kept one's revision the kept, earlier one stays there too)
            setAside.add(new SeenRevision(dropped.update(), dropped.occurredAt()));
        }
        events++;
        task.taken(byCase.size());
    }

    /** Distinct cases pending. */
    int cases() {
        return byCase.size();
    }

    /** About how much heap the pending events and their records keep ({@link PendingEvent#retainedBytes()}). */
    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return byCase.isEmpty();
    }

    /** The task was punctuated: whatever it wrote before was committed. */
    void punctuated() {
        task.confirmed();
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
        List<BatchIsolation.Refused<PendingEvent>> refused = flusher.apply(byCase.values(), setAside, events);
        if (!refused.isEmpty()) {
            if (refusedRoute == null) {
                throw new IllegalStateException(refused.size() + " events refused by PostgreSQL and no dead-letter route; "
                        + "the batch's offsets stay uncommitted");
            }
            refusedRoute.accept(refused);
        }
        byCase.clear();
        setAside.clear();
        events = 0;
        bytes = 0;
        LAST_FLUSH_ENDED.get()[0] = System.currentTimeMillis();
        return true;
    }

    /** When the calling stream thread last finished writing a batch: it processed nothing while it wrote. */
    static long lastFlushEndedOnThisThread() {
        return LAST_FLUSH_ENDED.get()[0];
    }

    /** Kafka Streams discards a task's uncommitted work (its input is read again): so does this. */
    @Override
    protected void discardUncommitted() {
        byCase.clear();
        setAside.clear();
        events = 0;
        bytes = 0;
        uncommittedWriteAt = 0;
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
        byCase.clear();
        setAside.clear();
        events = 0;
        bytes = 0;
        uncommittedWriteAt = 0;
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

    private static final class Builder implements StoreBuilder<PendingAssignments> {
        private final Flusher flusher;
        private final UncommittedWork work;
        private final BatchConflicts conflicts;

        Builder(Flusher flusher, UncommittedWork work, BatchConflicts conflicts) {
            this.flusher = flusher;
            this.work = work;
            this.conflicts = conflicts;
        }

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
            return new PendingAssignments(flusher, work, conflicts);
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
