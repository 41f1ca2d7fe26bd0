package org.caseassignments.projector.sink;

import java.time.Duration;

import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.caseassignments.store.AssignmentUpdate;

/**
 * Puts each accepted event into its task's {@link PendingAssignments} and decides when the task should
 * commit — which flushes the store into PostgreSQL first. The task's decoding processor hands it each
 * accepted event directly (no further topology node per event). Batches size themselves to the lag:
 * <ul>
 *   <li>while the events are live (the newest is at most {@code freshWithin} old), it asks for a commit
 *       at the next check, every {@code checkEvery}: a live event reaches PostgreSQL within about that
 *       long;</li>
 *   <li>once the input has gone quiet (no event for {@code quietAfter} while the thread was free to
 *       process, that is not writing a batch), it asks for a commit too: the end of a backlog of old
 *       events does not wait for the commit interval;</li>
 *   <li>while the projector is behind, old events keep coming and it keeps gathering them, so a case
 *       that changed many times is written once; Kafka Streams commits at its commit interval anyway,
 *       and it asks for a commit as soon as {@code maxPendingCases} cases are pending.</li>
 * </ul>
 */
public final class ProjectionWriter {

    /** When to ask for a commit; see the class comment. */
    public record Pacing(Duration checkEvery, Duration freshWithin, Duration quietAfter, int maxPendingCases) {
    }

    private final Pacing pacing;
    private ProcessorContext<?, ?> context;
    private PendingAssignments pending;
    private long lastEventAt;
    private long newestTimestamp = Long.MIN_VALUE;

    public ProjectionWriter(Pacing pacing) {
        this.pacing = pacing;
    }

    /** Called from the owning processor's {@code init}; the processor must be connected to {@link PendingAssignments#NAME}. */
    public void init(ProcessorContext<?, ?> context) {
        this.context = context;
        this.pending = context.getStateStore(PendingAssignments.NAME);
        context.schedule(pacing.checkEvery(), PunctuationType.WALL_CLOCK_TIME, this::check);
    }

    /** An accepted event, with the timestamp of the record it came in. */
    public void add(AssignmentUpdate update, long timestamp) {
        pending.add(update);
        lastEventAt = context.currentSystemTimeMs();
        newestTimestamp = Math.max(newestTimestamp, timestamp);
        if (pending.cases() >= pacing.maxPendingCases()) {
            context.commit();
        }
    }

    private void check(long now) {
        if (pending.isEmpty()) {
            return;
        }
        long busyUntil = Math.max(lastEventAt, PendingAssignments.lastFlushEndedOnThisThread());
        boolean quiet = now - busyUntil >= pacing.quietAfter().toMillis();
        boolean live = newestTimestamp >= now - pacing.freshWithin().toMillis();
        if (quiet || live) {
            context.commit();
        }
    }
}
