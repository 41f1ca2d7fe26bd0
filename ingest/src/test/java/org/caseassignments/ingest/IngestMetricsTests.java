package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.store.DatabaseRejection;
import org.junit.jupiter.api.Test;

class IngestMetricsTests {

    @Test
    void shouldRegisterEveryDeadLetterReasonAtZeroSoThatTheFirstDeadLetterIsAnIncrease() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        new IngestMetrics(registry, "projector");

        for (String reason : Rejection.CODES) {
            Counter counter = registry.find("case_assignments.events.dead_lettered")
                    .tags("source", "projector", "reason", reason).counter();
            assertThat(counter).as(reason).isNotNull();
            assertThat(counter.count()).as(reason).isZero();
        }
        assertThat(Rejection.CODES).contains(DecodeFailure.UNKNOWN_SCHEMA.name(), Rejection.INVALID_KEY,
                DatabaseRejection.ROW_REFUSED).doesNotContain(DecodeFailure.REGISTRY_UNAVAILABLE.name());
    }

    @Test
    void shouldCountADeadLetterOnTheCounterRegisteredAtTheStart() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IngestMetrics metrics = new IngestMetrics(registry, "replay");

        metrics.deadLettered(new Rejection(Rejection.KEY_MISMATCH, "key names another case"));

        assertThat(registry.find("case_assignments.events.dead_lettered").tags("reason", Rejection.KEY_MISMATCH)
                .counter().count()).isEqualTo(1.0);
    }
}
