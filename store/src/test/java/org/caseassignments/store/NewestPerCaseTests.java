package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.caseassignments.store.BatchReduction.NewestPerCase;
import org.junit.jupiter.api.Test;

/** The pending table keeps exactly what the one reduction rule keeps, however many cases and collisions. */
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
                table.add(update);
            }

            List<AssignmentUpdate> expected = BatchReduction.highestRevisionPerCase(events);
            assertThat(table.size()).as("seed %d", seed).isEqualTo(expected.size());
            assertThat(table.values()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtTheSameRevisionReportTheConflictAndNeverKeepALowerOne() {
        UUID caseId = UUID.randomUUID();
        List<AssignmentUpdate> conflicts = new ArrayList<>();
        NewestPerCase<AssignmentUpdate> table = new NewestPerCase<>(u -> u, (u, replacing) -> replacing,
                (kept, dropped) -> conflicts.add(dropped));
        AssignmentUpdate first = AssignmentUpdate.changed(caseId, "w-first", "s", 3);
        AssignmentUpdate later = AssignmentUpdate.changed(caseId, "w-later", "s", 3);
        assertThat(table.add(AssignmentUpdate.changed(caseId, "w-lower", "s", 1))).isNull();
        // each add tells what the table let go of: the item replaced, or the one not kept
        assertThat(table.add(first)).isEqualTo(AssignmentUpdate.changed(caseId, "w-lower", "s", 1));
        assertThat(table.add(later)).isSameAs(later);
        table.add(AssignmentUpdate.changed(caseId, "w-first", "s", 3));
        table.add(AssignmentUpdate.changed(caseId, "w-older", "s", 2));
        table.add(AssignmentUpdate.created(caseId, "w-created", "s"));

        assertThat(table.values()).containsExactly(AssignmentUpdate.changed(caseId, "w-first", "s", 3));
        assertThat(conflicts).containsExactly(AssignmentUpdate.changed(caseId, "w-later", "s", 3));
    }

    @Test
    void shouldKeepEveryCaseAfterShrinkingBackFromALargeBatch() {
        NewestPerCase<AssignmentUpdate> table = table();
        for (int i = 0; i < 20_000; i++) {
            table.add(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1));
        }
        table.clear();
        List<AssignmentUpdate> small = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            small.add(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 2));
            table.add(small.get(i));
        }
        table.clear(); // a small batch after a large one: back to the minimum capacity

        small.forEach(table::add);
        assertThat(table.values()).containsExactlyInAnyOrderElementsOf(small);
    }

    @Test
    void shouldBeEmptyAfterClearAndTakeTheSameCasesAgain() {
        NewestPerCase<AssignmentUpdate> table = table();
        List<UUID> cases = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            cases.add(UUID.randomUUID());
            table.add(AssignmentUpdate.changed(cases.get(i), "w", "s", 5));
        }

        table.clear();
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.values()).isEmpty();

        cases.forEach(caseId -> table.add(AssignmentUpdate.changed(caseId, "w", "s", 1)));
        assertThat(table.size()).isEqualTo(3_000);
        assertThat(table.values()).allSatisfy(update -> assertThat(update.revision()).isEqualTo(1));
    }

    private static NewestPerCase<AssignmentUpdate> table() {
        return new NewestPerCase<>(u -> u, (u, replacing) -> replacing, (kept, dropped) -> { });
    }
}
