package org.caseassignments.projector.sink;

import java.util.List;
import java.util.Map;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchReduction;

/**
 * A task's accepted events not yet in PostgreSQL, reduced to the highest revision per case (on a tie
 * the later event wins: {@link BatchReduction#candidateWins}) in a {@link CaseTable}. Held in memory
 * only: after a crash the uncommitted input is read again, and the guard makes applying it a second
 * time harmless.
 *
 * <p><b>Why it is a {@link CachedStateStore}.</b> Before a task commits its input offsets, Kafka Streams
 * flushes the caches of its stores ({@code StreamTask.prepareCommit} → {@code flushCache}); a plain
 * store's {@link #flush()} runs only after the offsets were committed, when the task checkpoints. So
 * the pending batch is written in {@link #flushCache()}, which returns only once the transaction
 * committed, and an input offset never moves past an event the database does not have.
 * {@code CachedStateStore} is in Kafka Streams' internals package: an upgrade must keep
 * {@code ProjectorDatabaseOutageIntegrationTests} and {@code ProjectorCrashIntegrationTests} green, which
 * fail if the write ever comes after the offset commit.
 */
public final class PendingAssignments implements StateStore, CachedStateStore<Object, Object> {

    /** Applies one reduced batch, retrying until it committed; {@code events} counts the events it stands for. */
    @FunctionalInterface
    public interface Flusher {
        void apply(List<AssignmentUpdate> updates, int events);
    }

    public static final String NAME = "pending-assignments";

    /** When this stream thread last finished writing a batch (any of its tasks'), in epoch milliseconds. */
    private static final ThreadLocal<long[]> LAST_FLUSH_ENDED = ThreadLocal.withInitial(() -> new long[1]);

    private final Flusher flusher;
    private final CaseTable byCase = new CaseTable();
    private int events;
    private boolean open;

    PendingAssignments(Flusher flusher) {
        this.flusher = flusher;
    }

    /** The store for a topology; each task gets its own instance. */
    public static StoreBuilder<PendingAssignments> builder(Flusher flusher) {
        return new Builder(flusher);
    }

    void add(AssignmentUpdate update) {
        byCase.add(update);
        events++;
    }

    /** Distinct cases pending. */
    int cases() {
        return byCase.size();
    }

    boolean isEmpty() {
        return byCase.isEmpty();
    }

    /** Writes everything pending in one transaction; called by Kafka Streams before it commits the offsets. */
    @Override
    public void flushCache() {
        if (byCase.isEmpty()) {
            return;
        }
        flusher.apply(byCase.values(), events);
        byCase.clear();
        events = 0;
        LAST_FLUSH_ENDED.get()[0] = System.currentTimeMillis();
    }

    /** When the calling stream thread last finished writing a batch: it processed nothing while it wrote. */
    static long lastFlushEndedOnThisThread() {
        return LAST_FLUSH_ENDED.get()[0];
    }

    /** Kafka Streams discards a task's uncommitted work (its input is read again): so does this. */
    @Override
    public void clearCache() {
        byCase.clear();
        events = 0;
    }

    /** Nothing to forward: the database is where the pending batch goes. */
    @Override
    public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOldValues) {
        return false;
    }

    /** Called after a commit, with nothing pending by then; writing early would be harmless anyway. */
    @Override
    public void flush() {
        flushCache();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        // Nothing to restore: what was pending at a crash is read again from the uncommitted input.
        context.register(root, (key, value) -> { });
        open = true;
    }

    @Override
    public void close() {
        byCase.clear();
        events = 0;
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

        Builder(Flusher flusher) {
            this.flusher = flusher;
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
            return new PendingAssignments(flusher);
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
