package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class AssignmentWriterIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    @Test
    void shouldApplyAStrictlyNewerRevisionAndIgnoreEqualOrLowerOnes() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-5", "s-5", 5)));

        ApplyResult equal = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-x", "s-x", 5)));
        ApplyResult lower = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-4", "s-4", 4)));
        ApplyResult higher = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-6", "s-6", 6)));

        assertThat(equal.unchanged()).isEqualTo(1);
        assertThat(lower.unchanged()).isEqualTo(1);
        assertThat(higher.advancedCases()).containsExactly(caseId);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-6").containsEntry("assignment_revision", 6L);
    }

    @Test
    void shouldNeverLetAReplayedCreationDisplaceANewerAssignment() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        ApplyResult replayed = writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0")));

        assertThat(replayed.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-2");
    }

    @Test
    void shouldReplaceAPlaceholderWithTheCreationAndHealRowsBornWhileUnknown() {
        UUID caseId = UUID.randomUUID();
        assertThat(writer.insertPlaceholder(caseId)).isTrue();
        assertThat(writer.insertPlaceholder(caseId)).isFalse();
        UUID placement = Rows.placement(caseId).bornUnknown().insert(jdbc);

        ApplyResult result = writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0")));

        assertThat(result.advancedCases()).containsExactly(caseId);
        assertThat(result.entityRowsHealed()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assignment_revision", 0L).containsEntry("supervisor_sub", "s-0");
        assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, row_version FROM placements WHERE id = ?", placement))
                .containsEntry("assigned_worker_sub", "w-0").containsEntry("row_version", 2L);
    }

    @Test
    void shouldMoveEntityRowsForwardAndBumpTheirRowVersionButNeverBackwards() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1)));
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID kinship = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        ApplyResult forward = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-3", "s-3", 3)));
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        assertThat(forward.placementsUpdated()).isEqualTo(1);
        assertThat(forward.kinshipOptionsUpdated()).isEqualTo(1);
        for (String table : List.of("placements", "kinship_options")) {
            UUID id = table.equals("placements") ? placement : kinship;
            assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, assignment_revision, row_version FROM "
                    + table + " WHERE id = ?", id))
                    .containsEntry("assigned_worker_sub", "w-3")
                    .containsEntry("assignment_revision", 3L)
                    .containsEntry("row_version", 2L);
        }
    }

    @Test
    void shouldConvergeAtAnEqualRevisionOnlyUnderTheSnapshotGuard() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-4", "s-4", 4)));

        ApplyResult strict = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-other", "s-4", 4)));
        ApplyResult converge = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-truth", "s-4", 4)));
        ApplyResult older = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-old", "s-4", 3)));

        assertThat(strict.unchanged()).isEqualTo(1);
        assertThat(converge.advancedCases()).containsExactly(caseId);
        assertThat(older.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-truth").containsEntry("assignment_revision", 4L);
    }

    private Map<String, Object> projection(UUID caseId) {
        return jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", caseId);
    }
}
