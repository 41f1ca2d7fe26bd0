package org.caseassignments.projector.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.caseassignments.store.AssignmentUpdate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** When a task asks to commit, which flushes its pending cases into PostgreSQL, and what the flush gets. */
class CommitPacerTests {

    /** Ahead of the real clock, so no batch written earlier on this thread counts as recent. */
    private static final long NOW = System.currentTimeMillis() + 3_600_000L;
    private static final Duration FRESH = Duration.ofSeconds(1);

    private final List<List<AssignmentUpdate>> flushed = new ArrayList<>();
    private final List<Integer> flushedEvents = new ArrayList<>();
    private final List<Integer> askedPartitions = new ArrayList<>();
    private final List<AssignmentUpdate> conflicts = new ArrayList<>();
    private final UncommittedWork work = new UncommittedWork(Clock.systemUTC(), new SimpleMeterRegistry(),
            Duration.ofMinutes(2));
    private boolean fetched;
    private MockProcessorContext<Void, Void> context;
    private PendingAssignments pending;
    private CommitPacer writer;

    @BeforeEach
    void init() {
        init(Duration.ofMillis(100));
    }

    private void init(Duration quietAfter) {
        context = new MockProcessorContext<>();
        pending = store((updates, events) -> {
            flushed.add(updates.stream().map(PendingEvent::update).toList());
            flushedEvents.add(events);
            return List.of();
        });
        context.addStateStore(pending);
        writer = new CommitPacer(new CommitPacer.Pacing(Duration.ofMillis(100), FRESH, quietAfter, 3),
                partition -> {
                    askedPartitions.add(partition);
                    return fetched;
                });
        writer.init(context);
    }

    private void process(UUID caseId, long revision, long timestamp) {
        process(caseId, revision, timestamp, NOW);
    }

    /** At wall-clock time {@code at}, an event written at {@code timestamp}. */
    private void process(UUID caseId, long revision, long timestamp, long at) {
        context.setCurrentSystemTimeMs(at);
        writer.add(PendingEvent.of(AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision), timestamp));
    }

    private PendingAssignments store(PendingAssignments.Flusher flusher) {
        PendingAssignments store = PendingAssignments.builder(flusher, work, dropped -> conflicts.add(dropped)).build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    private void check(long now) {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(now);
    }

    @Test
    void shouldAskToCommitAtTheNextCheckWhileEventsAreLive() {
        process(UUID.randomUUID(), 1, NOW - 200);
        assertThat(context.committed()).isFalse();

        check(NOW);

        assertThat(context.committed()).isTrue();
    }

    @Test
    void shouldKeepGatheringOldEventsWhileTheyKeepComingAndCommitOnceTheInputGoesQuiet() {
        UUID caseId = UUID.randomUUID();
        process(caseId, 1, NOW - 60_000, NOW);
        check(NOW + 50);
        process(caseId, 2, NOW - 59_000, NOW + 60);
        check(NOW + 100);
        assertThat(context.committed()).as("behind, and events still arriving").isFalse();

        check(NOW + 160);

        assertThat(context.committed()).as("no event for a whole check interval").isTrue();
    }

    @Test
    void shouldCommitAsSoonAsTheConsumerHasFetchedEverythingAndNoEventCameForACheckInterval() {
        init(Duration.ofMinutes(10));
        fetched = true;
        process(UUID.randomUUID(), 1, NOW - 60_000, NOW);

        check(NOW + 50);
        assertThat(context.committed()).as("an event came within the check interval: more may be buffered").isFalse();

        check(NOW + 100);
        assertThat(context.committed()).as("read to the end, long before the input counts as quiet").isTrue();
        assertThat(askedPartitions).containsOnly(context.taskId().partition());
    }

    @Test
    void shouldKeepGatheringWhileTheConsumerHasNotFetchedEverythingUntilTheInputIsQuiet() {
        init(Duration.ofMillis(500));
        fetched = false;
        process(UUID.randomUUID(), 1, NOW - 60_000, NOW);

        check(NOW + 100);
        check(NOW + 400);
        assertThat(context.committed()).as("idle, but the consumer has more to fetch").isFalse();

        check(NOW + 500);
        assertThat(context.committed()).as("no event for the quiet interval").isTrue();
    }

    @Test
    void shouldNotTakeTheTimeItsThreadSpentWritingABatchForAQuietInput() {
        long realNow = System.currentTimeMillis();
        PendingAssignments other = store((updates, events) -> List.of());
        process(UUID.randomUUID(), 1, realNow - 60_000, realNow - 1_000);
        other.add(PendingEvent.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), realNow));
        other.flushCache(); // another task on this thread writes a batch, ending about now

        check(System.currentTimeMillis() + 50);

        assertThat(context.committed()).as("no event for a second, but the thread was busy writing, not idle").isFalse();

        check(System.currentTimeMillis() + 150);

        assertThat(context.committed()).as("idle for a whole check interval after the write").isTrue();
    }

    @Test
    void shouldAskToCommitAsSoonAsTheMostPendingCasesAreGathered() {
        process(UUID.randomUUID(), 1, NOW - 60_000);
        process(UUID.randomUUID(), 1, NOW - 60_000);
        assertThat(context.committed()).isFalse();

        process(UUID.randomUUID(), 1, NOW - 60_000);

        assertThat(context.committed()).isTrue();
    }

    @Test
    void shouldNotAskToCommitWithNothingPending() {
        check(NOW);
        check(NOW + 100);
        assertThat(context.committed()).isFalse();
    }

    @Test
    void shouldFlushTheHighestRevisionOfEachCaseOnceAndCountEveryEvent() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        process(first, 2, NOW);
        process(second, 5, NOW);
        process(first, 1, NOW);
        process(first, 3, NOW);
        process(second, 5, NOW);

        pending.flushCache();
        pending.flushCache();

        assertThat(flushed).hasSize(1);
        assertThat(flushed.get(0)).extracting(u -> u.caseId() + "@" + u.revision())
                .containsExactlyInAnyOrder(first + "@3", second + "@5");
        assertThat(flushedEvents).containsExactly(5);
        assertThat(pending.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepWhatIsPendingWhenTheFlushFailsSoTheTaskCommitsNothing() {
        PendingAssignments failing = store((updates, events) -> {
            throw new IllegalStateException("database away");
        });
        failing.add(PendingEvent.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), NOW));

        org.assertj.core.api.Assertions.assertThatThrownBy(failing::flushCache).hasMessage("database away");
        assertThat(failing.cases()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtOneRevisionAndReportTheSecondOnce() {
        UUID caseId = UUID.randomUUID();
        context.setCurrentSystemTimeMs(NOW);
        writer.add(PendingEvent.of(AssignmentUpdate.changed(caseId, "first", "s", 4), NOW));
        writer.add(PendingEvent.of(AssignmentUpdate.changed(caseId, "second", "s", 4), NOW));
        writer.add(PendingEvent.of(AssignmentUpdate.changed(caseId, "first", "s", 4), NOW));

        pending.flushCache();

        assertThat(flushed.get(0)).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("first");
        assertThat(conflicts).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("second");
    }
}
