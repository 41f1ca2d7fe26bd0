package org.caseassignments.projector.batch;

import java.time.Duration;

import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Puts each accepted event into its task's {@link PendingAssignments} and decides when to write it to
 * PostgreSQL and when the task should commit — which writes whatever is still pending first. The task's
 * decoding processor hands it each accepted event directly (no further topology node per event). Batches
 * size themselves to the lag:
 * <ul>
 *   <li>while the events are live (the newest is at most {@code freshWithin} old), it writes the pending
 *       batch at each check, every {@code checkEvery}, without a commit: a live event reaches PostgreSQL
 *       within about that long. The offsets follow once the first batch written since the last commit is
 *       {@code liveCommitEvery} old: then it asks for a commit, so a live task pays one exactly-once commit
 *       per {@code liveCommitEvery} instead of one per check (decision 21);</li>
 *   <li>once the task has read its input to the end — its consumer has fetched everything its
 *       partitions hold ({@link Backlog}) and no event came for a whole check interval while the thread
 *       was free to process, that is not writing a batch — it asks for a commit: the end of a backlog
 *       of old events is written at once;</li>
 *   <li>if the consumer's position is not known, a task that received no event for {@code quietAfter}
 *       (while free to process) asks for a commit too;</li>
 *   <li>while the projector is behind, old events keep coming and it keeps gathering them, so a case
 *       that changed many times is written once; Kafka Streams commits at its commit interval anyway,
 *       and it asks for a commit as soon as {@code maxPendingCases} cases are pending, or their records hold
 *       {@code maxPendingBytes} ({@link PendingEvent#retainedBytes()}): memory is bounded by bytes as well as
 *       by cases, whatever the size of the records.</li>
 * </ul>
 */
public final class WriteScheduler {

    /** When to write and when to ask for a commit; see the class comment. */
    public record Pacing(Duration checkEvery, Duration freshWithin, Duration quietAfter, int maxPendingCases,
                         Duration liveCommitEvery, long maxPendingBytes) {
    }

    /** Whether a task's consumer has fetched everything its input partitions hold. */
    @FunctionalInterface
    public interface Backlog {

        /** Nothing is known: only the quiet rule ends a backlog. */
        Backlog UNKNOWN = partition -> false;

        /**
         * True only when the consumer's lag is known to be 0 on every input partition numbered
         * {@code partition} (a task reads the partitions of one number): what is left is in the task's
         * own buffer.
         */
        boolean fetched(int partition);
    }

    private final Pacing pacing;
    private final Backlog backlog;
    private ProcessorContext<?, ?> context;
    private PendingAssignments pending;
    private long lastEventAt;
    private long newestTimestamp = Long.MIN_VALUE;

    public WriteScheduler(Pacing pacing, Backlog backlog) {
        this.pacing = pacing;
        this.backlog = backlog;
    }

    /** Called from the owning processor's {@code init}; the processor must be connected to {@link PendingAssignments#NAME}. */
    public void init(ProcessorContext<?, ?> context) {
        this.context = context;
        this.pending = context.getStateStore(PendingAssignments.NAME);
        context.schedule(pacing.checkEvery(), PunctuationType.WALL_CLOCK_TIME, this::check);
    }

    /** An accepted event, with the record it came in. */
    public void add(PendingEvent event) {
        pending.add(event);
        lastEventAt = context.currentSystemTimeMs();
        newestTimestamp = Math.max(newestTimestamp, event.timestamp());
        if (pending.cases() >= pacing.maxPendingCases() || pending.bytes() >= pacing.maxPendingBytes()) {
            context.commit();
        }
    }

    private void check(long now) {
        pending.punctuated();
        if (!pending.isEmpty()) {
            if (newestTimestamp >= now - pacing.freshWithin().toMillis()) {
                pending.writeNow(now);
            } else {
                long idle = now - Math.max(lastEventAt, PendingAssignments.lastFlushEndedOnThisThread());
                boolean quiet = idle >= pacing.quietAfter().toMillis();
                // Kafka Streams processes buffered records between checks, so a task idle for a whole check
                // interval whose consumer has fetched everything has read it all (were it not so, committing
                // now would only make this batch smaller).
                if (quiet || idle >= pacing.checkEvery().toMillis() && backlog.fetched(context.taskId().partition())) {
                    context.commit();
                    return;
                }
            }
        }
        long writtenAt = pending.uncommittedWriteAt();
        if (writtenAt != 0 && now - writtenAt >= pacing.liveCommitEvery().toMillis()) {
            context.commit();
        }
    }
}
