package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PartitionProgressTests {

    private static final TopicPartition P0 = new TopicPartition("case.events", 0);
    private static final TopicPartition P1 = new TopicPartition("case.events", 1);
    private static final Duration MAX_STALL = Duration.ofMinutes(2);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void shouldReportAPartitionWithInputBeyondAnUnmovedCommittedOffsetOnceTheBoundPassed() {
        PartitionProgress progress = new PartitionProgress();
        progress.observe(P0, 41, 50, true, T0);
        progress.observe(P0, 41, 60, true, T0.plusSeconds(60));

        assertThat(progress.stalled(MAX_STALL, T0.plusSeconds(120))).isEmpty();
        progress.observe(P0, 41, 60, true, T0.plusSeconds(121));
        assertThat(progress.stalled(MAX_STALL, T0.plusSeconds(121))).singleElement().satisfies(stalled -> {
            assertThat(stalled.partition()).isEqualTo(P0);
            assertThat(stalled.committed()).isEqualTo(41);
            assertThat(stalled.since()).isEqualTo(T0);
        });
    }

    @Test
    void shouldNotReportAPartitionThatMovedHasNothingLeftOrThatAnotherInstanceReads() {
        PartitionProgress progress = new PartitionProgress();
        progress.observe(P0, 41, 50, true, T0);
        progress.observe(P1, 7, 7, true, T0);
        progress.observe(P0, 45, 50, true, T0.plusSeconds(100));
        progress.observe(P1, 7, 7, true, T0.plusSeconds(300));
        assertThat(progress.stalled(MAX_STALL, T0.plusSeconds(200))).isEmpty();

        // another instance took P0 and has not moved it: that instance reports it, not this one
        progress.observe(P0, 45, 50, false, T0.plusSeconds(400));
        assertThat(progress.stalled(MAX_STALL, T0.plusSeconds(400))).isEmpty();
    }
}
