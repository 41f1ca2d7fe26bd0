package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class BatchReductionTests {

    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    @Test
    void shouldKeepOnlyTheHighestRevisionPerCaseWhateverTheArrivalOrder() {
        List<AssignmentUpdate> batch = List.of(
                AssignmentUpdate.changed(B, "w-3", "s", 3),
                AssignmentUpdate.changed(A, "w-5", "s", 5),
                AssignmentUpdate.created(A, "w-0", "s"),
                AssignmentUpdate.changed(A, "w-2", "s", 2),
                AssignmentUpdate.changed(B, "w-1", "s", 1));

        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(batch);

        assertThat(survivors).extracting(AssignmentUpdate::caseId, AssignmentUpdate::assignedWorkerSub)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(A, "w-5"), org.assertj.core.groups.Tuple.tuple(B, "w-3"));
    }

    @Test
    void shouldKeepTheJurisdictionOfAnEventItReplacedWhenTheNewerOneCarriesNone() {
        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(List.of(
                AssignmentUpdate.created(A, "w-0", "s").withJurisdiction("georgia"),
                AssignmentUpdate.changed(A, "w-1", "s", 1),
                AssignmentUpdate.changed(B, "w-1", "s", 1).withJurisdiction("georgia"),
                AssignmentUpdate.changed(B, "w-2", "s", 2).withJurisdiction("texas"),
                AssignmentUpdate.changed(B, "w-3", "s", 3),
                // lower than the kept one: written on its own it would change nothing, its jurisdiction included
                AssignmentUpdate.changed(B, "w-0", "s", 0).withJurisdiction("alaska")));

        assertThat(survivors).containsExactly(
                AssignmentUpdate.changed(A, "w-1", "s", 1).withJurisdiction("georgia"),
                AssignmentUpdate.changed(B, "w-3", "s", 3).withJurisdiction("texas"));
    }

    @Test
    void shouldLetACreationSurviveWhenNoChangeOfItsCaseIsInTheBatch() {
        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(List.of(
                AssignmentUpdate.created(A, "w-0", "s-0")));

        assertThat(survivors).containsExactly(AssignmentUpdate.created(A, "w-0", "s-0"));
    }

    @Test
    void shouldLetTheLaterOfTwoEqualRevisionsWin() {
        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(List.of(
                AssignmentUpdate.snapshot(A, "old", "s", 4),
                AssignmentUpdate.snapshot(A, "new", "s", 4)));

        assertThat(survivors).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("new");
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtOneRevisionAndReportTheSecondAsAConflict() {
        ReducedBatch<AssignmentUpdate> batch = BatchReduction.reduce(List.of(
                AssignmentUpdate.changed(A, "first", "s", 4),
                AssignmentUpdate.changed(A, "second", "s", 4),
                AssignmentUpdate.changed(A, "first", "s", 4)));
        List<AssignmentUpdate> survivors = batch.updates();
        List<AssignmentUpdate> conflicts = batch.conflicts();

        assertThat(survivors).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("first");
        assertThat(conflicts).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("second");
    }

    @Test
    void shouldSetAsideTheRevisionsOfACaseInTheOrderTheyCameAndNeverASecondAtTheKeptRevision() {
        List<AssignmentUpdate> setAside = new java.util.ArrayList<>();

        BatchReduction.perCase(List.of(
                AssignmentUpdate.changed(A, "first", "s", 5),
                AssignmentUpdate.changed(A, "second", "s", 5),
                AssignmentUpdate.changed(A, "newer", "s", 6),
                AssignmentUpdate.changed(A, "third", "s", 5)), java.util.function.Function.identity(),
                (kept, candidate) -> { }, dropped -> setAside.add(dropped.update()));

        assertThat(setAside).extracting(AssignmentUpdate::assignedWorkerSub).containsExactly("first", "third");
    }
}
