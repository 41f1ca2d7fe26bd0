package org.caseassignments.projector.stream;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * The one place that uses Kafka Streams' internals: a hook that runs in a task before the task commits its input
 * offsets ({@link #beforeCommit()}), and {@link Forwarder forwarding} records from that hook. Everything else in the
 * projector uses the public API only (an architecture test keeps it so).
 *
 * <p><b>The hook.</b> Before a task commits its input offsets, Kafka Streams flushes the caches of its stores
 * ({@code StreamTask.prepareCommit} → {@code flushCache}); a plain store's {@link #flush()} runs only after the
 * offsets were committed, when the task checkpoints. A store that is a {@link CachedStateStore} therefore runs its
 * {@code flushCache} — here {@link #beforeCommit()} — before every commit, and the commit waits for it (decision 7);
 * when the task's uncommitted work is discarded (its input is read again), {@code clearCache} runs —
 * here {@link #discardUncommitted()}.
 *
 * <p><b>Forwarding from it.</b> The hook runs outside any processor's {@code process()}, so Kafka Streams has no
 * current node nor record to forward from. A {@link Forwarder}, made in a processor's {@code init} (where that
 * processor is the current node), puts its node back and sets the record context of the record being forwarded,
 * as Kafka Streams' own caching stores do when they forward on flush; what it forwards is sent by the task's
 * producer in the transaction of the commit under way (decision 13).
 *
 * <p><b>Upgrading Kafka Streams.</b> These internals may change in any release. The tests that fail if the hook
 * no longer runs before the offset commit, or forwarding from it no longer reaches the dead-letter topic in that
 * commit's transaction, are {@code ProjectorDatabaseOutageIntegrationTests}, {@code ProjectorCrashIntegrationTests},
 * {@code ProjectorDatabaseRejectionIntegrationTests}, {@code ProjectorRowRefusalIntegrationTests} and
 * {@code ProjectorLiveCommitIntegrationTests}: keep them green.
 */
public abstract class BeforeCommitHook implements StateStore, CachedStateStore<Object, Object> {

    /** Runs before the task commits its input offsets; the commit goes ahead only once this returned. */
    protected abstract void beforeCommit();

    /** The task's uncommitted work is discarded: its input since the last commit will be read again. */
    protected abstract void discardUncommitted();

    /** Kafka Streams calls this before it commits the task's offsets. */
    @Override
    public final void flushCache() {
        beforeCommit();
    }

    @Override
    public final void clearCache() {
        discardUncommitted();
    }

    /** Nothing is forwarded through a listener: a {@link Forwarder} forwards from the hook. */
    @Override
    public final boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOldValues) {
        return false;
    }

    /** Forwards records from the hook as the processor that made it, each as if it came from its own input record. */
    public static final class Forwarder<K, V> {

        private final ProcessorContext<K, V> context;
        private final ProcessorNode<?, ?, ?, ?> node;

        private Forwarder(ProcessorContext<K, V> context, ProcessorNode<?, ?, ?, ?> node) {
            this.context = context;
            this.node = node;
        }

        /** To be called from the processor's {@code init}, where Kafka Streams has made it the current node. */
        public static <K, V> Forwarder<K, V> of(ProcessorContext<K, V> context) {
            return new Forwarder<>(context,
                    context instanceof InternalProcessorContext<?, ?> internal ? internal.currentNode() : null);
        }

        /**
         * Throws unless forwarding is possible: from a processor of a Kafka Streams task.
         *
         * @param what what would be forwarded, for the message
         */
        public void requireTask(String what) {
            if (!(context instanceof InternalProcessorContext<?, ?>) || node == null) {
                throw new IllegalStateException("cannot forward " + what + " outside a Kafka Streams task");
            }
        }

        /**
         * Forwards {@code record} as though it were being processed from the input record at {@code topic},
         * {@code partition}, {@code offset}.
         *
         * @throws IllegalStateException outside a Kafka Streams task: nothing is forwarded, and the caller's
         *                               commit must not go ahead
         */
        public void forward(Record<K, V> record, String topic, int partition, long offset, long timestamp,
                            Headers headers) {
            requireTask("a record");
            InternalProcessorContext<?, ?> internal = (InternalProcessorContext<?, ?>) context;
            ProcessorNode<?, ?, ?, ?> previousNode = internal.currentNode();
            ProcessorRecordContext previousRecord = internal.recordContext();
            try {
                internal.setCurrentNode(node);
                internal.setRecordContext(new ProcessorRecordContext(timestamp, offset, partition, topic, headers));
                context.forward(record);
            } finally {
                internal.setRecordContext(previousRecord);
                internal.setCurrentNode(previousNode);
            }
        }
    }
}
