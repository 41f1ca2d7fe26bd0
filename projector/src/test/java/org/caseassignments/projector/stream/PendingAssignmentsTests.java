package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.DatabaseRejection;
import org.caseassignments.store.ReducedBatch;
import org.caseassignments.store.SeenRevision;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a task writes its pending cases into PostgreSQL, when it asks to commit (which writes what is still
 * pending first), and what the write gets.
 */
class PendingAssignmentsTests {

    /** Ahead of the real clock, so no batch written earlier on this thread counts as recent. */
    private static final long NOW = System.currentTimeMillis() + 3_600_000L;
    private static final Duration FRESH = Duration.ofSeconds(1);
    private static final Duration LIVE_COMMIT_EVERY = Duration.ofSeconds(1);

    private final List<List<AssignmentUpdate>> flushed = new ArrayList<>();
    private final List<Integer> flushedEvents = new ArrayList<>();
    private final List<List<AssignmentUpdate>> flushedSetAside = new ArrayList<>();
    private final List<Integer> askedPartitions = new ArrayList<>();
    private final List<AssignmentUpdate> conflicts = new ArrayList<>();
    private final MutableClock clock = new MutableClock();
    private final UncommittedWork work = new UncommittedWork(clock, new SimpleMeterRegistry(), Duration.ofMinutes(2));
    private boolean fetched;
    private MockProcessorContext<Void, Void> context;
    private PendingAssignments.Pacing pacing;
    private PendingAssignments pending;
    private final List<PendingAssignments.Event> deadLettered = new ArrayList<>();

    @BeforeEach
    void init() {
        init(Duration.ofMillis(100));
    }

    private void init(Duration quietAfter) {
        init(quietAfter, Long.MAX_VALUE, Duration.ofDays(1));
    }

    private void init(Duration quietAfter, long maxPendingBytes, Duration writeWithin) {
        init(quietAfter, maxPendingBytes, writeWithin, Duration.ofDays(1));
    }

    private void init(Duration quietAfter, long maxPendingBytes, Duration writeWithin, Duration backlogWaitAtMost) {
        if (pending != null) {
            pending.close();
        }
        context = new MockProcessorContext<>();
        pacing = new PendingAssignments.Pacing(Duration.ofMillis(100), FRESH, quietAfter, 3, LIVE_COMMIT_EVERY,
                maxPendingBytes, writeWithin, backlogWaitAtMost);
        pending = store(new PendingAssignments.Flusher() {
            @Override
            public List<BatchIsolation.Refused<PendingAssignments.Event>> apply(ReducedBatch<PendingAssignments.Event> batch) {
                flushed.add(batch.updates());
                List<AssignmentUpdate> history = batch.history().stream().map(SeenRevision::update).toList();
                flushedSetAside.add(history.subList(0, history.size() - batch.updates().size()));
                flushedEvents.add(batch.events());
                return List.of();
            }

            @Override
            public void conflicting(AssignmentUpdate dropped) {
                conflicts.add(dropped);
            }
        });
        context.addStateStore(pending);
        pending.attach(context, refused -> deadLettered.addAll(refused.stream().map(r -> r.item()).toList()));
    }

    private void process(UUID caseId, long revision, long timestamp) {
        process(caseId, revision, timestamp, NOW);
    }

    /** At wall-clock time {@code at}, an event written at {@code timestamp}. */
    private void process(UUID caseId, long revision, long timestamp, long at) {
        context.setCurrentSystemTimeMs(at);
        pending.add(PendingAssignments.Event.of(AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision), timestamp));
    }

    /** At {@code NOW}, a live event of {@code caseId} assigning {@code worker} at {@code revision}. */
    private void add(UUID caseId, String worker, long revision) {
        context.setCurrentSystemTimeMs(NOW);
        pending.add(PendingAssignments.Event.of(AssignmentUpdate.changed(caseId, worker, "s", revision), NOW));
    }

    private PendingAssignments store(PendingAssignments.Flusher flusher) {
        return store(context, flusher);
    }

    private PendingAssignments store(MockProcessorContext<Void, Void> on, PendingAssignments.Flusher flusher) {
        PendingAssignments store = PendingAssignments.builder(flusher, work, pacing, partition -> {
            askedPartitions.add(partition);
            return fetched;
        }).build();
        store.init(on.getStateStoreContext(), store);
        return store;
    }

    private static MockProcessorContext<Void, Void> contextOf(TaskId taskId) {
        return new MockProcessorContext<>(new Properties(), taskId, null);
    }

    private static PendingAssignments.Flusher noWrites() {
        return batch -> {
            throw new AssertionError("wrote " + batch.updates());
        };
    }

    private static PendingAssignments.Flusher flushesInto(List<List<AssignmentUpdate>> flushed) {
        return batch -> {
            flushed.add(batch.updates());
            return List.of();
        };
    }

    /** Alone with an 8 KB budget, 20 old revisions of one case: about 5 KB, nothing written yet. */
    private void holdTwentyOldRevisionsOfEightKilobytes() {
        init(Duration.ofMinutes(10), 8 * 1024, Duration.ofDays(1));
        UUID caseId = UUID.randomUUID();
        for (int revision = 1; revision <= 20; revision++) {
            process(caseId, revision, NOW - 60_000, NOW);
        }
        assertThat(flushed).isEmpty();
    }

    /** Old events of one case, a revision each, into {@code store} until it writes: how many it took. */
    private static int untilWritten(PendingAssignments store, MockProcessorContext<Void, Void> on, UUID caseId) {
        on.setCurrentSystemTimeMs(NOW);
        int revision = 0;
        do {
            revision++;
            store.add(PendingAssignments.Event.of(AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision),
                    NOW - 60_000));
        } while (!store.isEmpty() && revision < 1_000);
        return revision;
    }

    /** The context of another task of the thread, at wall-clock time {@code now}. */
    private static MockProcessorContext<Void, Void> contextAt(long now) {
        MockProcessorContext<Void, Void> other = new MockProcessorContext<>();
        other.setCurrentSystemTimeMs(now);
        return other;
    }

    private void check(long now) {
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(now);
    }

    @Test
    void shouldWriteLiveEventsAtEachCheckWithoutAskingToCommit() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        process(first, 1, NOW - 200);
        assertThat(flushed).isEmpty();

        check(NOW);
        process(second, 1, NOW + 50, NOW + 50);
        check(NOW + 100);

        assertThat(flushed).extracting(batch -> batch.get(0).caseId()).containsExactly(first, second);
        assertThat(context.committed()).as("the offsets wait for the live commit interval").isFalse();
        assertThat(pending.isEmpty()).isTrue();
    }

    @Test
    void shouldAskToCommitOnceTheFirstWriteSinceTheLastCommitIsLiveCommitEveryOld() {
        process(UUID.randomUUID(), 1, NOW);
        check(NOW);
        process(UUID.randomUUID(), 1, NOW + 500, NOW + 500);
        check(NOW + 600);
        check(NOW + 900);
        assertThat(context.committed()).as("written less than a live commit interval ago").isFalse();

        check(NOW + 1_000);
        assertThat(context.committed()).as("nothing new pending, but the first write is a second old").isTrue();

        // When Kafka Streams prepares that commit (it flushes the store), the next write starts the wait anew
        pending.flushCache();
        context.resetCommit();
        process(UUID.randomUUID(), 1, NOW + 1_050, NOW + 1_050);
        check(NOW + 1_100);
        check(NOW + 2_000);
        assertThat(context.committed()).isFalse();
        check(NOW + 2_100);
        assertThat(context.committed()).isTrue();
        assertThat(flushed).hasSize(3);
    }

    @Test
    void shouldCountALiveWriteAsUncommittedWhileTheTaskGoesOnUntilACommitIsPreparedAfterIt() {
        Duration bound = Duration.ofSeconds(4);
        process(UUID.randomUUID(), 1, NOW);
        check(NOW);
        clock.advance(Duration.ofSeconds(5));

        // The task takes more events and is punctuated again: its first write is still not committed
        process(UUID.randomUUID(), 1, NOW + 50, NOW + 50);
        check(NOW + 100);
        check(NOW + 200);
        assertThat(work.stalled(bound)).as("written twice, committed never").hasSize(1);

        // Kafka Streams prepares a commit, and the task is punctuated after it: the commit succeeded
        pending.flushCache();
        check(NOW + 300);
        assertThat(work.stalled(bound)).isEmpty();
    }

    @Test
    void shouldHandWhatPostgresqlRefusesInALiveWriteToTheDeadLetterRoute() {
        UUID poisoned = UUID.randomUUID();
        PendingAssignments refusing = store(batch -> batch.kept().stream().map(ReducedBatch.Entry::item)
                .filter(event -> event.update().caseId().equals(poisoned))
                .map(event -> new BatchIsolation.Refused<>(event, new DatabaseRejection(
                        DatabaseRejection.INTEGRITY_VIOLATION, "23514", "refused")))
                .toList());
        refusing.attach(context, refused -> refused.forEach(r -> deadLettered.add(r.item())));
        context.setCurrentSystemTimeMs(NOW);
        refusing.add(PendingAssignments.Event.of(AssignmentUpdate.changed(poisoned, "w", "s", 1), NOW));
        refusing.add(PendingAssignments.Event.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), NOW));

        refusing.writeNow(NOW);

        assertThat(deadLettered).extracting(event -> event.update().caseId()).containsExactly(poisoned);
        assertThat(refusing.isEmpty()).isTrue();
        assertThat(refusing.uncommittedWriteAt()).isEqualTo(NOW);
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
        PendingAssignments other = store(batch -> List.of());
        process(UUID.randomUUID(), 1, realNow - 60_000, realNow - 1_000);
        other.attach(contextAt(realNow), refused -> { });
        other.add(PendingAssignments.Event.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), realNow));
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
        PendingAssignments failing = store(batch -> {
            throw new IllegalStateException("database away");
        });
        failing.attach(contextAt(NOW), refused -> { });
        failing.add(PendingAssignments.Event.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), NOW));

        org.assertj.core.api.Assertions.assertThatThrownBy(failing::flushCache).hasMessage("database away");
        assertThat(failing.cases()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtOneRevisionAndReportTheSecondOnceAsItArrives() {
        // Given a case's event at revision 4
        UUID caseId = UUID.randomUUID();
        add(caseId, "first", 4);

        // When another one claims revision 4 with another assignment, and the first comes again
        add(caseId, "second", 4);
        assertThat(conflicts).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("second");
        add(caseId, "first", 4);
        pending.flushCache();

        // Then the first is written, and the second was reported once, as it arrived

        assertThat(flushed.get(0)).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("first");
        assertThat(conflicts).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("second");
    }

    @Test
    void shouldWriteAndAskToCommitOnceTheOldestEventTakenIsWriteWithinOldWhileEventsKeepComing() {
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofMillis(500));
        UUID caseId = UUID.randomUUID();
        process(caseId, 1, NOW - 60_000, NOW);
        process(caseId, 2, NOW - 60_000, NOW + 450);
        check(NOW + 450);
        assertThat(flushed).as("the oldest event taken is 450 ms old").isEmpty();

        process(caseId, 3, NOW - 60_000, NOW + 500);
        check(NOW + 500);

        assertThat(flushed).hasSize(1);
        assertThat(flushedEvents).containsExactly(3);
        assertThat(context.committed()).as("its offsets follow at once: nothing taken since is cut off by a commit later")
                .isTrue();
    }

    @Test
    void shouldGatherEachBacklogBatchForAsLongAsTheBacklogHadLastedWhenItsFirstEventWasTaken() {
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofMillis(500));
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        // A backlog read from NOW on, one event every 100 ms: the first batch waits write-within (500 ms)
        for (long at = NOW; at <= NOW + 500; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
        }
        check(NOW + 500);
        assertThat(flushed).hasSize(1);
        context.resetCommit();

        // The next one's oldest event is taken 600 ms into the backlog: it waits 600 ms, not write-within
        for (long at = NOW + 600; at <= NOW + 1_100; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
        }
        check(NOW + 1_100);
        assertThat(flushed).as("its oldest event is 500 ms old, the backlog had lasted 600 ms").hasSize(1);
        process(caseId, ++revision, NOW - 60_000, NOW + 1_200);
        check(NOW + 1_200);
        assertThat(flushed).hasSize(2);
        assertThat(context.committed()).isTrue();
        context.resetCommit();

        // And the one after that, 1,300 ms into the backlog, waits 1,300 ms
        for (long at = NOW + 1_300; at < NOW + 2_600; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
        }
        check(NOW + 2_500);
        assertThat(flushed).hasSize(2);
        process(caseId, ++revision, NOW - 60_000, NOW + 2_600);
        check(NOW + 2_600);
        assertThat(flushed).hasSize(3);
        assertThat(flushedEvents).containsExactly(6, 7, 14);
    }

    @Test
    void shouldNeverGatherABacklogBatchLongerThanItsLongestWait() {
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofMillis(500), Duration.ofSeconds(2));
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        for (long at = NOW; at <= NOW + 500; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
        }
        check(NOW + 500);
        // Ten seconds into the backlog, a batch begins: it waits 2 s, not 10
        process(caseId, ++revision, NOW - 60_000, NOW + 10_000);
        check(NOW + 11_900);
        assertThat(flushed).hasSize(1);
        check(NOW + 12_000);
        assertThat(flushed).hasSize(2);
    }

    @Test
    void shouldWaitWriteWithinAgainOnceTheTaskWasLiveBetweenTwoBacklogs() {
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofMillis(500));
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        for (long at = NOW; at <= NOW + 500; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
        }
        check(NOW + 500);
        // The task catches up: a live event, written at the next check
        process(caseId, ++revision, NOW + 5_000, NOW + 5_000);
        check(NOW + 5_000);
        assertThat(flushed).hasSize(2);

        // A new backlog, 10 s after the first began, waits write-within again
        process(caseId, ++revision, NOW - 60_000, NOW + 10_000);
        check(NOW + 10_500);
        assertThat(flushed).hasSize(3);
    }

    @Test
    void shouldCountTheRevisionsSetAsideForTheHistoryAgainstTheByteBudgetAndWriteAtOnceWhenItIsReached() {
        init(Duration.ofMinutes(10), 4 * 1024, Duration.ofDays(1));
        UUID caseId = UUID.randomUUID();
        int revision = 0;
        while (flushed.isEmpty() && revision < 1_000) {
            process(caseId, ++revision, NOW - 60_000, NOW);
        }

        // one case: only what is set aside for its history can reach 4 KB, at about 300 bytes a revision
        assertThat(flushed).hasSize(1);
        assertThat(revision).isBetween(10, 17);
        assertThat(flushedSetAside.get(0)).hasSize(revision - 1);
        assertThat(context.committed()).isFalse();
        assertThat(pending.isEmpty()).isTrue();
    }

    @Test
    void shouldWriteAtItsShareOfTheBudgetWhenOtherTasksOfTheInstanceAreProcessing() {
        // three tasks processing on the instance share 12 KB: this one writes at 4 KB, as it would alone with 4 KB
        work.startedProcessing();
        work.startedProcessing();
        init(Duration.ofMinutes(10), 12 * 1024, Duration.ofDays(1));

        int revisions = untilWritten(pending, context, UUID.randomUUID());

        assertThat(flushed).hasSize(1);
        assertThat(revisions).isBetween(10, 17);
        assertThat(pending.isEmpty()).isTrue();
    }

    @Test
    void shouldWriteAtTheNextCheckWhenATaskBeganProcessingSinceAndMadeItsShareSmallerThanWhatItHolds() {
        holdTwentyOldRevisionsOfEightKilobytes();

        work.startedProcessing(); // its share is 4 KB now
        check(NOW + 100);

        assertThat(flushed).hasSize(1);
        assertThat(flushedSetAside.get(0)).hasSize(19);
        assertThat(pending.isEmpty()).isTrue();
    }

    @Test
    void shouldStillCommitAtTheEndOfItsInputWhenATaskBeganProcessingSinceAndMadeItsShareSmaller() {
        holdTwentyOldRevisionsOfEightKilobytes();
        fetched = true;

        work.startedProcessing();
        check(NOW + 100); // idle a whole check interval with nothing left to fetch: the end of its input

        assertThat(context.committed()).isTrue();
    }

    @Test
    void shouldStillCommitByTheLiveRuleAtACheckThatWroteAtASmallerShare() {
        holdTwentyOldRevisionsOfEightKilobytes(); // about 5 KB
        work.startedProcessing(); // a 4 KB share
        check(NOW + 100);
        assertThat(flushed).hasSize(1);
        assertThat(context.committed()).isFalse();
        UUID other = UUID.randomUUID();
        for (int revision = 1; revision <= 12; revision++) { // about 3 KB: under 4, over the next share
            process(other, revision, NOW - 60_000, NOW + 200);
        }
        assertThat(flushed).hasSize(1);

        work.startedProcessing(); // a share of 2.7 KB
        check(NOW + 100 + LIVE_COMMIT_EVERY.toMillis());

        assertThat(flushed).hasSize(2);
        assertThat(context.committed()).as("the first write's offsets, a live-commit interval later").isTrue();
    }

    @Test
    void shouldShareTheBudgetAmongTheInstancesProcessingNowWhenATaskMovesBeforeItsOldInstanceCloses() {
        // Given this task and another processing, with 8 KB between them
        init(Duration.ofMinutes(10), 8 * 1024, Duration.ofDays(1));
        MockProcessorContext<Void, Void> otherContext = contextOf(new TaskId(1, 0));
        PendingAssignments other = store(otherContext, noWrites());
        other.attach(otherContext, refused -> { });

        // When this task's new instance (on another thread) begins processing before its old instance closes
        MockProcessorContext<Void, Void> movedContext = contextOf(context.taskId());
        PendingAssignments moved = store(movedContext, flushesInto(flushed));
        moved.attach(movedContext, refused -> { });
        pending.close();

        // Then the two processing share the budget: the moved one writes at 4 KB
        int revisions = untilWritten(moved, movedContext, UUID.randomUUID());
        assertThat(revisions).isBetween(10, 17);
    }

    @Test
    void shouldGiveNoShareToATaskWhoseStoreIsOpenButThatDoesNotProcess() {
        // a standby (or a task still restoring) opens its stores, never its processors
        store(contextOf(new TaskId(1, 0)), noWrites());
        init(Duration.ofMinutes(10), 4 * 1024, Duration.ofDays(1));

        int revisions = untilWritten(pending, context, UUID.randomUUID());

        assertThat(revisions).isBetween(10, 17);
    }

    @Test
    void shouldKeepCommittingLiveEventsWhenItsShareOfTheBudgetRoundsToNothing() {
        work.startedProcessing();
        work.startedProcessing();
        init(Duration.ofMinutes(10), 2, Duration.ofDays(1)); // 2 bytes among three tasks

        add(UUID.randomUUID(), "w", 1);
        assertThat(flushed).hasSize(1); // every event is over the share
        check(NOW + LIVE_COMMIT_EVERY.toMillis());

        assertThat(context.committed()).isTrue();
    }

    @Test
    void shouldRefuseAByteBudgetOfNothing() {
        assertThatThrownBy(() -> new PendingAssignments.Pacing(Duration.ofMillis(100), FRESH, Duration.ofSeconds(1), 3,
                LIVE_COMMIT_EVERY, 0, Duration.ofMillis(50), Duration.ofSeconds(15)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-pending-bytes must be at least 1 byte, was 0");
    }

    @Test
    void shouldSetAsideTheRevisionsOfACaseForItsHistoryInTheOrderTheyCameAndNeverASecondAtTheKeptRevision() {
        UUID caseId = UUID.randomUUID();
        add(caseId, "first", 5);
        add(caseId, "second", 5);
        add(caseId, "newer", 6);
        add(caseId, "third", 5);

        pending.flushCache();

        assertThat(flushed.get(0)).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("newer");
        assertThat(flushedSetAside.get(0)).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("first", "third");
    }

    @Test
    void shouldWriteOldEventsFromAConsumerWithNothingLeftToFetchWithinWriteWithinHoweverLongTheyKeepComing() {
        // A producer's clock 2 s behind: a steady stream, an event every 10 ms, its consumer caught up (decision 7)
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofMillis(500), Duration.ofSeconds(60));
        fetched = true;
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        long lastWrite = NOW;
        long longestGap = 0;
        int writes = 0;
        for (long at = NOW; at <= NOW + 120_000; at += 10) {
            process(caseId, ++revision, at - 2_000, at);
            if ((at - NOW) % 100 == 0) {
                check(at + 5);
                if (flushed.size() > writes) {
                    writes = flushed.size();
                    longestGap = Math.max(longestGap, at + 5 - lastWrite);
                    lastWrite = at + 5;
                }
            }
        }
        assertThat(longestGap).as("longest time between two writes").isLessThanOrEqualTo(1_000);
        assertThat(writes).isGreaterThan(100);
    }

    @Test
    void shouldWaitWriteWithinForANewBacklogAfterAQuietSpellWithNothingPending() {
        init(Duration.ofMillis(500), Long.MAX_VALUE, Duration.ofMillis(500));
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        // A backlog of two batches, the second written by its own wait
        for (long at = NOW; at <= NOW + 1_100; at += 100) {
            process(caseId, ++revision, NOW - 60_000, at);
            check(at);
        }
        process(caseId, ++revision, NOW - 60_000, NOW + 1_200);
        check(NOW + 1_200);
        assertThat(flushed).hasSize(2);
        // An hour with nothing pending, checked all along
        for (long at = NOW + 1_300; at < NOW + 3_600_000; at += 60_000) {
            check(at);
        }
        // A new backlog: its first batch waits write-within, not as long as the first backlog had lasted
        process(caseId, ++revision, NOW - 60_000, NOW + 3_600_000);
        process(caseId, ++revision, NOW - 60_000, NOW + 3_600_400);
        check(NOW + 3_600_400);
        assertThat(flushed).hasSize(2);
        process(caseId, ++revision, NOW - 60_000, NOW + 3_600_500);
        check(NOW + 3_600_500);
        assertThat(flushed).hasSize(3);
    }

    @Test
    void shouldGatherABacklogForWriteWithinWhenItIsLongerThanTheLongestWait() {
        init(Duration.ofMinutes(10), Long.MAX_VALUE, Duration.ofSeconds(30), Duration.ofSeconds(2));
        UUID caseId = UUID.randomUUID();
        process(caseId, 1, NOW - 60_000, NOW);
        process(caseId, 2, NOW - 60_000, NOW + 29_000);
        check(NOW + 29_000);
        assertThat(flushed).as("write-within is what an operator set, not cut to the growth's bound").isEmpty();
        process(caseId, 3, NOW - 60_000, NOW + 30_000);
        check(NOW + 30_000);
        assertThat(flushed).hasSize(1);
    }

    @Test
    void shouldWaitWriteWithinForANewBacklogAfterItsChecksFoundNothingPendingWhileAnotherTaskOfTheThreadJustWrote() {
        init(Duration.ofMillis(300), Long.MAX_VALUE, Duration.ofMillis(100), Duration.ofSeconds(10));
        // Another task of the same stream thread: its writes end on the thread's clock (the real one)
        PendingAssignments other = store(new PendingAssignments.Flusher() {
            @Override
            public List<BatchIsolation.Refused<PendingAssignments.Event>> apply(ReducedBatch<PendingAssignments.Event> batch) {
                return List.of();
            }
        });
        other.attach(contextAt(System.currentTimeMillis()), refused -> { });
        UUID caseId = UUID.randomUUID();
        long revision = 0;
        // A backlog of two batches, the second written by its own wait, ten seconds ago
        long t0 = System.currentTimeMillis() - 10_000;
        process(caseId, ++revision, t0 - 60_000, t0);
        check(t0 + 100);
        process(caseId, ++revision, t0 - 60_000, t0 + 150);
        check(t0 + 300);
        assertThat(flushed).hasSize(2);
        // Since then this task got nothing, while the other task of its thread has just written
        other.add(PendingAssignments.Event.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1), t0));
        other.flushCache();
        long now = PendingAssignments.lastFlushEndedOnThisThread();
        // checked all along: nothing pending at its checks for quiet-after (the thread itself was never quiet)
        for (long at = now - 400; at <= now + 10; at += 50) {
            check(at);
        }
        // A new backlog: its first batch waits write-within, as after a quiet spell on a task alone on its thread
        process(caseId, ++revision, t0 - 60_000, now + 20);
        process(caseId, ++revision, t0 - 60_000, now + 110);
        check(now + 130);
        assertThat(flushed).as("the new backlog's first batch, write-within after its first event").hasSize(3);
    }

    @Test
    void shouldNotTakeTheWriteThatEmptiedItForAQuietSpellThatEndsABacklog() {
        init(Duration.ofMillis(300), Long.MAX_VALUE, Duration.ofMillis(100), Duration.ofSeconds(10));
        UUID caseId = UUID.randomUUID();
        // A backlog: its first batch at write-within, its second after as long as the backlog had lasted (200 ms)
        process(caseId, 1, NOW - 60_000, NOW);
        check(NOW + 100);
        process(caseId, 2, NOW - 60_000, NOW + 200);
        check(NOW + 400);
        assertThat(flushed).hasSize(2);
        // That write took 2 s: the next check, the first to find nothing pending, comes after it
        check(NOW + 2_400);
        // and the backlog goes on: its next batch waits as long as the backlog had lasted (2,450 ms), not write-within
        long revision = 2;
        for (long at = NOW + 2_450; at < NOW + 4_900; at += 50) {
            process(caseId, ++revision, NOW - 60_000, at);
            check(at);
            assertThat(flushed).as("a write's own time is not a quiet spell").hasSize(2);
        }
        process(caseId, ++revision, NOW - 60_000, NOW + 4_900);
        check(NOW + 4_900);
        assertThat(flushed).hasSize(3);
    }
}
