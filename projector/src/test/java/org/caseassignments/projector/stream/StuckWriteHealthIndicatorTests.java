package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.caseassignments.store.WriterHealth;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

class StuckWriteHealthIndicatorTests {

    private final MutableClock clock = new MutableClock();
    /** What the batch writer keeps of its threads, on the same clock. */
    private final WriterHealth writer = WriterHealth.watched(clock);
    private final StuckWriteHealthIndicator health = new StuckWriteHealthIndicator(clock, Duration.ofMinutes(10), writer);

    @Test
    void shouldStayUpThroughABatchOfManyTransactionsEachWithinTheBoundAndGoDownWhenOneOutlastsIt() {
        // Given a stream thread writing one batch in transactions of 6 min each (halves, bisection): 18 min in all
        writer.began();
        for (int transaction = 0; transaction < 3; transaction++) {
            clock.advance(Duration.ofMinutes(6));
            writer.transactionEnded();
        }

        // Then the sum of its transactions does not make liveness DOWN
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        // When one transaction outlasts the bound
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));

        // Then liveness is DOWN, naming the thread
        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.health().getDetails().get("reason").toString())
                .contains(Thread.currentThread().getName(), "one transaction of a batch's write");

        // and UP again once the batch ended
        writer.ended();
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }
}
