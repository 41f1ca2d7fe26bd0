package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class SwapTimingTests {

    @Test
    void shouldReportTheLastAttemptsWaitAndHoldWhenTheFirstAttemptGotTheLock() {
        SwapTiming timing = new SwapTiming(1, Duration.ofMillis(500), Duration.ofMillis(8), Duration.ofMillis(7), 0);

        assertThat(timing.longestPause()).isEqualTo(Duration.ofMillis(15));
    }

    @Test
    void shouldReportAWholeLockTimeoutWhenAnAttemptGaveUpAfterMakingTheQueueWaitThatLong() {
        SwapTiming timing = new SwapTiming(5, Duration.ofMillis(500), Duration.ofMillis(12), Duration.ofMillis(54), 0);

        assertThat(timing.longestPause()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void shouldReportTheLastAttemptWhenItWaitedAndHeldLongerThanTheTimeoutOfTheOthers() {
        SwapTiming timing = new SwapTiming(2, Duration.ofMillis(100), Duration.ofMillis(90), Duration.ofMillis(60), 0);

        assertThat(timing.longestPause()).isEqualTo(Duration.ofMillis(150));
    }
}
