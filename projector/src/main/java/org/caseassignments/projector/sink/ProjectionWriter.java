package org.caseassignments.projector.sink;

import java.time.Duration;

import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.caseassignments.store.AssignmentUpdate;

/**
 * Puts each accepted event into its task's {@link PendingAssignments} and decides when the task should
 * commit — which flushes the store into PostgreSQL first. Batches size themselves to the lag:
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
public final class ProjectionWriter implements Processor<String, AssignmentUpdate, Void, Void> {

    /** When to ask for a commit; see the class comment. */
    public record Pacing(Duration checkEvery, Duration freshWithin, Duration quietAfter, int maxPendingCases) {
    }

    private final Pacing pacing;
    private ProcessorContext<Void, Void> context;
    private PendingAssignments pending;
    private long lastEventAt;
    private long newestTimestamp = Long.MIN_VALUE;

    public ProjectionWriter(Pacing pacing) {
        this.pacing = pacing;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.pending = context.getStateStore(PendingAssignments.NAME);
        context.schedule(pacing.checkEvery(), PunctuationType.WALL_CLOCK_TIME, this::check);
    }

    @Override
    public void process(Record<String, AssignmentUpdate> record) {
        pending.add(record.value());
        lastEventAt = context.currentSystemTimeMs();
        newestTimestamp = Math.max(newestTimestamp, record.timestamp());
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
