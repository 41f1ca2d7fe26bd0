package org.caseassignments.projector.stream;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of liveness: DOWN while stream threads were replaced after a failure more than
 * {@code projector.health.max-restarts} times within {@code projector.health.restart-window}. Kafka Streams replaces a
 * failed thread at once and the client stays RUNNING, so a thread that dies on the same batch again and again is a
 * crash loop no other indicator sees when it is faster than readiness' bounds; a restart of the process starts
 * from a fresh JVM (a leak, a corrupt cache), and the process restarts are alerted on
 * ({@code ProjectorRestarting}). UP again by itself once the replacements fall out of the window.
 */
final class StreamThreadRestartsHealthIndicator implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(StreamThreadRestartsHealthIndicator.class);

    private final StreamThreadFailures failures;
    private final int maxRestarts;
    private final Duration window;
    private volatile boolean down;

    StreamThreadRestartsHealthIndicator(StreamThreadFailures failures, int maxRestarts, Duration window) {
        this.failures = failures;
        this.maxRestarts = maxRestarts;
        this.window = window;
    }

    @Override
    public Health health() {
        int recent = failures.within(window);
        if (recent <= maxRestarts) {
            if (down) {
                down = false;
                log.warn("Stream threads replaced {} times within {}: within the bound again", recent, window);
            }
            return Health.up().withDetail("replacedWithinWindow", recent).withDetail("maxRestarts", maxRestarts)
                    .withDetail("restartWindow", window.toString()).build();
        }
        String reason = "stream threads replaced " + recent + " times within " + window.toMinutes() + " min (bound "
                + maxRestarts + "); last failure " + failures.lastFailure();
        if (!down) {
            down = true;
            log.error("Not live: {}", reason);
        }
        return Health.down().withDetail("reason", reason).withDetail("replacedWithinWindow", recent)
                .withDetail("maxRestarts", maxRestarts).withDetail("restartWindow", window.toString()).build();
    }
}
