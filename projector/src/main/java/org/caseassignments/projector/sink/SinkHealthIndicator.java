package org.caseassignments.projector.sink;

import java.time.Clock;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN from the first failed attempt to apply a batch until a batch is applied again: the
 * projection is not advancing while it lasts. Also logs the start and end of each failure streak once.
 */
final class SinkHealthIndicator implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(SinkHealthIndicator.class);

    private final Clock clock;
    private volatile Instant failingSince;
    private volatile int failedAttempts;
    private volatile String lastError;
    private volatile Instant lastAppliedAt;
    private volatile BooleanSupplier consuming = () -> true;

    SinkHealthIndicator(Clock clock) {
        this.clock = clock;
    }

    /** Also DOWN while this says the sink's consumers are not running. */
    void watch(BooleanSupplier consuming) {
        this.consuming = consuming;
    }

    @Override
    public Health health() {
        if (!consuming.getAsBoolean()) {
            return Health.down().withDetail("consumer", "not running").build();
        }
        Instant since = failingSince;
        if (since != null) {
            return Health.down()
                    .withDetail("failingSince", since.toString())
                    .withDetail("failedAttempts", failedAttempts)
                    .withDetail("error", lastError)
                    .build();
        }
        Health.Builder up = Health.up();
        if (lastAppliedAt != null) {
            up.withDetail("lastAppliedAt", lastAppliedAt.toString());
        }
        return up.build();
    }

    synchronized void batchApplied(int records) {
        if (failingSince != null) {
            log.warn("Projection sink recovered: applied a batch of {} records after {} failed attempts since {}",
                    records, failedAttempts, failingSince);
        }
        failingSince = null;
        failedAttempts = 0;
        lastError = null;
        lastAppliedAt = clock.instant();
    }

    synchronized void attemptFailed(Exception error) {
        Throwable cause = rootCause(error);
        lastError = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        failedAttempts++;
        if (failingSince == null) {
            failingSince = clock.instant();
            log.warn("Projection sink cannot apply a batch; retrying it with backoff and committing nothing "
                    + "until it succeeds: {}", lastError);
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
