package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** How long a task's events wait for their offsets to commit, as readiness and the pending gauges see it. */
class UncommittedWorkTests {

    private static final Duration BOUND = Duration.ofMinutes(2);

    private final MutableClock clock = new MutableClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final UncommittedWork work = new UncommittedWork(clock, registry, Duration.ofMinutes(5));

    @Test
    void shouldCountATaskAsStalledOnlyOnceItsOldestUncommittedEventWaitedLongerThanTheBound() {
        UncommittedWork.Task task = work.open("0_1");
        task.taken(1, 0);
        clock.advance(BOUND);
        assertThat(work.stalled(BOUND)).isEmpty();

        clock.advance(Duration.ofSeconds(1));

        assertThat(work.stalled(BOUND)).extracting(UncommittedWork.Stalled::task).containsExactly("0_1");
        assertThat(registry.get("case_assignments.pending.cases").tag("task", "0_1").gauge().value()).isEqualTo(1);
        assertThat(registry.get("case_assignments.pending.oldest_age").tag("task", "0_1").timeGauge()
                .value(java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(121);
    }

    @Test
    void shouldCountAWrittenBatchAsCommittedOnlyOnceTheTaskDoesAnythingAfterIt() {
        UncommittedWork.Task task = work.open("0_1");
        task.taken(1, 0);
        task.flushed();
        clock.advance(BOUND.plusSeconds(1));
        assertThat(work.stalled(BOUND)).as("written, but the commit after it is not confirmed").hasSize(1);

        task.confirmed();

        assertThat(work.stalled(BOUND)).isEmpty();
    }

    @Test
    void shouldKeepABatchWrittenBetweenCommitsUncommittedWhateverTheTaskDoesUntilACommitIsPreparedAfterIt() {
        // Given a task that wrote a live batch ahead of its commit
        UncommittedWork.Task task = work.open("0_1");
        task.taken(1, 0);
        task.written();

        // When it goes on taking events and being punctuated, without a commit
        clock.advance(BOUND.plusSeconds(1));
        task.confirmed();
        task.taken(1, 0);
        task.written();
        task.confirmed();

        // Then the written batch still waits for its offsets: it is as old as its first event
        assertThat(work.stalled(BOUND)).extracting(UncommittedWork.Stalled::age)
                .containsExactly(BOUND.plusSeconds(1));

        // And once a commit was prepared after it, and the task then did something, it is committed
        task.flushed();
        assertThat(work.stalled(BOUND)).as("prepared, the commit not yet known to have succeeded").hasSize(1);
        task.confirmed();
        assertThat(work.stalled(BOUND)).isEmpty();
    }

    @Test
    void shouldKeepTheAgeOfABatchWrittenBetweenCommitsWhenTheTaskClosesBeforeItsCommit() {
        UncommittedWork.Task first = work.open("0_1");
        first.taken(2, 0);
        first.written();
        work.close(first);
        clock.advance(Duration.ofSeconds(130));

        UncommittedWork.Task again = work.open("0_1");

        assertThat(work.stalled(BOUND)).extracting(UncommittedWork.Stalled::age).containsExactly(Duration.ofSeconds(130));
        assertThat(registry.get("case_assignments.commit.failures").counter().count()).isEqualTo(1);
        again.taken(1, 0);
        again.flushed();
        again.confirmed();
        assertThat(work.stalled(BOUND)).isEmpty();
    }

    @Test
    void shouldKeepTheAgeOfATaskWhoseCommitFailedAcrossItsReopening() {
        // Given a task that wrote its batch, and whose commit then failed: its instance closes unconfirmed
        UncommittedWork.Task first = work.open("0_1");
        first.taken(3, 0);
        first.flushed();
        work.close(first);

        clock.advance(Duration.ofSeconds(130));
        assertThat(work.stalled(BOUND)).as("closed: its partitions may have gone to another instance").isEmpty();

        // When the task is opened again (its thread replaced) and reads the same events again
        UncommittedWork.Task again = work.open("0_1");
        again.taken(3, 0);

        // Then it is as old as the first event it never committed, and the failed commit is counted
        assertThat(work.stalled(BOUND)).extracting(UncommittedWork.Stalled::age).containsExactly(Duration.ofSeconds(130));
        assertThat(registry.get("case_assignments.commit.failures").counter().count()).isEqualTo(1);
    }

    @Test
    void shouldForgetATaskClosedCleanlyAndOneThatWentToAnotherInstance() {
        UncommittedWork.Task clean = work.open("0_1");
        clean.taken(1, 0);
        clean.flushed();
        clean.confirmed();
        work.close(clean);
        UncommittedWork.Task moved = work.open("0_2");
        moved.taken(1, 0);
        work.close(moved);

        clock.advance(Duration.ofMinutes(6));

        assertThat(work.stalled(BOUND)).isEmpty();
        assertThat(registry.find("case_assignments.pending.cases").gauges()).isEmpty();
        assertThat(registry.get("case_assignments.commit.failures").counter().count()).as("only the moved one").isEqualTo(1);
    }
}
