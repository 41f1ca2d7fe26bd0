package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class WriteMetricsTests {

    @Test
    void shouldRecordALagLongerThanTheLongestRecordedAtTheLongestInsteadOfFailing() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WriteMetrics metrics = new WriteMetrics(registry, "projector");

        metrics.endToEndLag(Duration.between(StorableTime.FIRST, Instant.now()));
        metrics.endToEndLag(Duration.ofSeconds(Long.MAX_VALUE));

        Timer lag = registry.get("case_assignments.lag.end_to_end").timer();
        assertThat(lag.count()).isEqualTo(2);
        assertThat(lag.max(TimeUnit.SECONDS)).isEqualTo(WriteMetrics.LONGEST_RECORDED_LAG.toSeconds());
    }
}
