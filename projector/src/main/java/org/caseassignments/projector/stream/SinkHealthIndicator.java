package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.caseassignments.ingest.BatchWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN from a stream thread's first failed attempt to apply a batch until that thread applies a batch
 * again — its partitions are not advancing meanwhile. Tracked per thread, so one thread's success does
 * not hide another's failure. Logs the start and the end of each failure streak once. (Whether the
 * stream threads run at all is the {@code kafkaStreams} health.)
 */
final class SinkHealthIndicator implements HealthIndicator, BatchWriter.Attempts {

    private static final Logger log = LoggerFactory.getLogger(SinkHealthIndicator.class);

    private record Failure(Instant since, int attempts, String error) {
    }

    private final Clock clock;
    private final Map<String, Failure> failing = new ConcurrentHashMap<>();
    private volatile Instant lastAppliedAt;

    SinkHealthIndicator(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Health health() {
        Failure oldest = failing.values().stream().min(Comparator.comparing(Failure::since)).orElse(null);
        if (oldest != null) {
            return Health.down()
                    .withDetail("failingSince", oldest.since().toString())
                    .withDetail("failedAttempts", oldest.attempts())
                    .withDetail("error", oldest.error())
                    .withDetail("failingThreads", failing.size())
                    .build();
        }
        Health.Builder up = Health.up();
        if (lastAppliedAt != null) {
            up.withDetail("lastAppliedAt", lastAppliedAt.toString());
        }
        return up.build();
    }

    /** Called on the stream thread after its batch committed in PostgreSQL. */
    @Override
    public void written(int records) {
        Failure ended = failing.remove(Thread.currentThread().getName());
        if (ended != null) {
            log.warn("Projection sink recovered: applied a batch of {} records after {} failed attempts since {}",
                    records, ended.attempts(), ended.since());
        }
        lastAppliedAt = clock.instant();
    }

    /** Called on the stream thread for each failed attempt at a batch. */
    @Override
    public void failed(RuntimeException error) {
        Throwable cause = rootCause(error);
        String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        Failure failure = failing.compute(Thread.currentThread().getName(), (thread, earlier) -> earlier == null
                ? new Failure(clock.instant(), 1, message)
                : new Failure(earlier.since(), earlier.attempts() + 1, message));
        if (failure.attempts() == 1) {
            log.warn("Projection sink cannot apply a batch; retrying it with backoff and committing nothing "
                    + "until it succeeds: {}", message);
        }
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
