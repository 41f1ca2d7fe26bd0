package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

class StreamThreadRestartsHealthIndicatorTests {

    private final MutableClock clock = new MutableClock();
    private final StreamThreadFailures failures = new StreamThreadFailures(new SimpleMeterRegistry(), clock,
            Duration.ofMinutes(10));
    private final StreamThreadRestartsHealthIndicator health =
            new StreamThreadRestartsHealthIndicator(failures, 2, Duration.ofMinutes(10));

    @Test
    void shouldGoDownPastTheBoundWithinTheWindowAndUpOnceTheReplacementsFallOutOfIt() {
        // Given two replacements a minute apart: within the bound
        failures.replaced(new IllegalStateException("first"));
        clock.advance(Duration.ofMinutes(1));
        failures.replaced(new IllegalStateException("second"));
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        // When a third comes within the window
        clock.advance(Duration.ofMinutes(1));
        failures.replaced(new RuntimeException("wrapper", new IllegalStateException("third")));

        // Then liveness is DOWN, naming the count and the last failure
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails().get("reason").toString())
                .contains("replaced 3 times within 10 min (bound 2)", "IllegalStateException: third");

        // and UP again once the first has left the window
        clock.advance(Duration.ofMinutes(8).plusSeconds(1));
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void shouldKeepOnlyTheReplacementsWithinTheWindowWhenNothingLooksAtThem() {
        // Given a thread replaced every minute for a day, and no health check asking meanwhile
        for (int minute = 0; minute < 24 * 60; minute++) {
            failures.replaced(new IllegalStateException("again"));
            clock.advance(Duration.ofMinutes(1));
        }

        // Then only the window's replacements are kept, not the day's
        assertThat(failures.kept()).isEqualTo(10);
    }
}
