package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.caseassignments.store.BatchReduction.NewestPerCase;
import org.caseassignments.store.BatchReduction.NewestPerCase.Added;
import org.junit.jupiter.api.Test;

/** The pending table keeps and sets aside exactly what the one reduction rule does, however many cases and collisions. */
class NewestPerCaseTests {

    @Test
    void shouldKeepWhatTheBatchReductionKeepsJurisdictionsIncludedWhileGrowingPastManyCollisions() {
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            List<UUID> cases = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                // Ids that differ in a few bits only, as well as random ones.
                cases.add(i % 2 == 0 ? new UUID(random.nextLong(), random.nextLong()) : new UUID(42, i));
            }
            List<AssignmentUpdate> events = new ArrayList<>();
            NewestPerCase<AssignmentUpdate> table = table();
            for (int i = 0; i < 40_000; i++) {
                // Some events carry the case's jurisdiction, most none: a kept one takes the jurisdiction of what
                // it replaced.
                int jurisdiction = random.nextInt(8);
                AssignmentUpdate update = AssignmentUpdate.changed(cases.get(random.nextInt(cases.size())),
                        "w-" + i, "s", random.nextInt(6)).withJurisdiction(jurisdiction < 2 ? "j-" + jurisdiction : null);
                events.add(update);
                table.add(update, update, null);
            }

            ReducedBatch<AssignmentUpdate> expected = BatchReduction.reduce(events);
            assertThat(table.size()).as("seed %d", seed).isEqualTo(expected.updates().size());
            assertThat(table.batch().updates()).as("seed %d", seed).containsExactlyElementsOf(expected.updates());
            // and the history it sets aside is the list reduction's, in the same order
            assertThat(table.batch().history()).as("seed %d", seed).containsExactlyElementsOf(expected.history());
            assertThat(table.batch().events()).isEqualTo(events.size());
        }
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtTheSameRevisionReportTheConflictAndNeverKeepALowerOne() {
        UUID caseId = UUID.randomUUID();
        NewestPerCase<AssignmentUpdate> table = table();
        AssignmentUpdate first = AssignmentUpdate.changed(caseId, "w-first", "s", 3);
        AssignmentUpdate later = AssignmentUpdate.changed(caseId, "w-later", "s", 3);
        assertThat(add(table, AssignmentUpdate.changed(caseId, "w-lower", "s", 1))).isEqualTo(Added.HELD);
        // each add tells whether the table let go of the item: only one at its case's kept revision, a conflict when
        // its assignment differs from the kept one's
        assertThat(add(table, first)).isEqualTo(Added.HELD);
        assertThat(add(table, later)).isEqualTo(Added.CONFLICTING);
        assertThat(add(table, AssignmentUpdate.changed(caseId, "w-first", "s", 3))).isEqualTo(Added.DUPLICATE);
        add(table, AssignmentUpdate.changed(caseId, "w-older", "s", 2));
        add(table, AssignmentUpdate.created(caseId, "w-created", "s"));

        ReducedBatch<AssignmentUpdate> batch = table.batch();
        assertThat(batch.updates()).containsExactly(AssignmentUpdate.changed(caseId, "w-first", "s", 3));
        assertThat(batch.conflicts()).isEmpty();
        assertThat(batch.history()).extracting(seen -> seen.update().assignedWorkerSub())
                .containsExactly("w-lower", "w-older", "w-created", "w-first");
        assertThat(batch.events()).isEqualTo(6);
    }

    @Test
    void shouldKeepEveryCaseAfterShrinkingBackFromALargeBatch() {
        NewestPerCase<AssignmentUpdate> table = table();
        for (int i = 0; i < 20_000; i++) {
            add(table, AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1));
        }
        table.clear();
        List<AssignmentUpdate> small = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            small.add(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 2));
            add(table, small.get(i));
        }
        table.clear(); // a small batch after a large one: back to the minimum capacity

        small.forEach(update -> add(table, update));
        assertThat(table.batch().updates()).containsExactlyInAnyOrderElementsOf(small);
    }

    @Test
    void shouldBeEmptyAfterClearAndTakeTheSameCasesAgain() {
        NewestPerCase<AssignmentUpdate> table = table();
        List<UUID> cases = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            cases.add(UUID.randomUUID());
            add(table, AssignmentUpdate.changed(cases.get(i), "w", "s", 5));
        }

        table.clear();
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.batch().isEmpty()).isTrue();
        assertThat(table.batch().events()).isZero();

        cases.forEach(caseId -> add(table, AssignmentUpdate.changed(caseId, "w", "s", 1)));
        assertThat(table.size()).isEqualTo(3_000);
        assertThat(table.batch().updates()).allSatisfy(update -> assertThat(update.revision()).isEqualTo(1));
    }

    private static NewestPerCase<AssignmentUpdate> table() {
        return new NewestPerCase<>();
    }

    private static Added add(NewestPerCase<AssignmentUpdate> table, AssignmentUpdate update) {
        return table.add(update, update, null);
    }
}
