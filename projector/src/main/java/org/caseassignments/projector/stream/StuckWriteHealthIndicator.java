package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.caseassignments.store.WriterHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of liveness: DOWN while a stream thread has been in one transaction of a batch's write (or the pause after a
 * failed attempt) for longer than {@code projector.health.max-write} — a statement whose answer never comes (a half-open socket the driver's
 * {@code socketTimeout} does not end, a driver or pool that hangs). Nothing but a restart frees such a thread, and
 * readiness cannot tell it from a slow batch. The batch writer keeps when each thread's transaction began
 * ({@link WriterHealth#writing()}): each ended transaction and each failed attempt starts the clock again
 * (an attempt may take many transactions: halves, bisection; a healthy projector is never restarted for their sum), so a database that refuses
 * every attempt (readiness' {@code projectionSink}) never makes it DOWN: only the pause before the next attempt
 * ({@code projector.sink.retry.max-interval} at most) counts towards it.
 */
final class StuckWriteHealthIndicator implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(StuckWriteHealthIndicator.class);

    private final Clock clock;
    private final Duration bound;
    private final WriterHealth writer;
    private volatile boolean down;

    StuckWriteHealthIndicator(Clock clock, Duration bound, WriterHealth writer) {
        this.clock = clock;
        this.bound = bound;
        this.writer = writer;
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        Map.Entry<String, Instant> oldest = writer.writing().entrySet().stream().min(Map.Entry.comparingByValue())
                .orElse(null);
        Duration age = oldest == null ? Duration.ZERO : Duration.between(oldest.getValue(), now);
        if (age.compareTo(bound) <= 0) {
            if (down) {
                down = false;
                log.warn("No stream thread is stuck in a write any more");
            }
            return Health.up().withDetail("maxWrite", bound.toString()).build();
        }
        String reason = "stream thread " + oldest.getKey() + " has been in one transaction of a batch's write for "
                + age.toSeconds() + " s (bound " + bound.toSeconds() + " s), since " + oldest.getValue()
                + ": a statement whose answer does not come; restart the projector, its tasks resume from their last "
                + "commit";
        if (!down) {
            down = true;
            log.error("Not live: {}", reason);
        }
        return Health.down().withDetail("reason", reason).withDetail("maxWrite", bound.toString())
                .withDetail("thread", oldest.getKey()).withDetail("since", oldest.getValue().toString()).build();
    }
}
