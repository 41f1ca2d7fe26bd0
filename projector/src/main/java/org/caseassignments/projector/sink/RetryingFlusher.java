package org.caseassignments.projector.sink;

import java.util.List;
import java.util.function.BooleanSupplier;

import org.caseassignments.ingest.ProjectionApplier;
import org.caseassignments.projector.ProjectorProperties;
import org.caseassignments.store.AssignmentUpdate;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Applies a flushed batch in one transaction and retries it with exponential backoff until it commits,
 * reporting each failed attempt to the health indicator: the stream thread waits, and Kafka Streams
 * commits no offset meanwhile. It gives up only when the application is stopping: the batch is then
 * left uncommitted in Kafka, to be read again by whoever owns the partitions next.
 */
final class RetryingFlusher implements PendingAssignments.Flusher {

    private final ProjectionApplier applier;
    private final ProjectorProperties.Retry retry;
    private final SinkHealthIndicator health;
    private final BooleanSupplier stopping;

    RetryingFlusher(ProjectionApplier applier, ProjectorProperties.Retry retry, SinkHealthIndicator health,
                    BooleanSupplier stopping) {
        this.applier = applier;
        this.retry = retry;
        this.health = health;
        this.stopping = stopping;
    }

    @Override
    public void apply(List<AssignmentUpdate> updates, int events) {
        ExponentialBackOff backOff = new ExponentialBackOff(retry.initialInterval().toMillis(), retry.multiplier());
        backOff.setMaxInterval(retry.maxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Integer.MAX_VALUE);
        BackOffExecution waits = backOff.start();
        while (true) {
            try {
                applier.apply(updates, events);
                health.batchApplied(events);
                return;
            } catch (RuntimeException e) {
                health.attemptFailed(e);
                if (stopping.getAsBoolean()) {
                    throw new IllegalStateException("stopping with a batch of " + events
                            + " events unapplied; its offsets stay uncommitted and it will be read again", e);
                }
            }
            pause(waits.nextBackOff());
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry a batch; its offsets stay uncommitted", e);
        }
    }
}
