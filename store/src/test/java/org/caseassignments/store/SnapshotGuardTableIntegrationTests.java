package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The snapshot guard ({@link Guard#NEWER_OR_CONVERGE}) for every stored state against a snapshot row at
 * revision 5 with pair (w-snap, s-snap): the outcome, the projection row, and the placement row that
 * started as a copy of the stored state.
 */
class SnapshotGuardTableIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    /** stored (null = absent; revision −1 = placeholder) → outcome, resulting projection, placement row_version. */
    static Stream<Arguments> guardTable() {
        return Stream.of(
                Arguments.of("absent", null, Outcome.INSERTED, new Triple("w-snap", "s-snap", 5), 2L),
                Arguments.of("placeholder", new Triple(null, null, -1), Outcome.ADVANCED, new Triple("w-snap", "s-snap", 5), 2L),
                Arguments.of("lower", new Triple("w-old", "s-old", 3), Outcome.ADVANCED, new Triple("w-snap", "s-snap", 5), 2L),
                Arguments.of("equal, same pair", new Triple("w-snap", "s-snap", 5), Outcome.UNCHANGED, new Triple("w-snap", "s-snap", 5), 1L),
                Arguments.of("equal, other pair", new Triple("w-live", "s-snap", 5), Outcome.CONVERGED, new Triple("w-snap", "s-snap", 5), 2L),
                Arguments.of("higher", new Triple("w-new", "s-new", 8), Outcome.SKIPPED_OLDER, new Triple("w-new", "s-new", 8), 1L));
    }

    @ParameterizedTest(name = "stored {0}")
    @MethodSource("guardTable")
    void shouldApplyTheSnapshotGuardToEachStoredState(String stored, Triple before, Outcome expectedOutcome,
                                                      Triple expectedProjection, long expectedRowVersion) {
        // Given a stored projection row (or none) and a placement row that copies it
        UUID caseId = UUID.randomUUID();
        if (before != null) {
            Rows.assignment(caseId).worker(before.worker()).supervisor(before.supervisor()).revision(before.revision()).insert(jdbc);
        }
        Triple entity = before == null || before.revision() < 0 ? new Triple(null, null, 0) : before;
        UUID placement = Rows.placement(caseId).worker(entity.worker()).supervisor(entity.supervisor())
                .revision(entity.revision()).insert(jdbc);

        // When the snapshot row (w-snap, s-snap) at revision 5 is applied
        ApplyResult result = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-snap", "s-snap", 5)));

        // Then
        assertThat(result.outcomes()).containsExactly(Map.entry(caseId, expectedOutcome));
        assertThat(result.outcomeCounts()).containsEntry(expectedOutcome, 1);
        assertThat(triple(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", caseId)))
                .isEqualTo(expectedProjection);
        Map<String, Object> row = jdbc.queryForMap("SELECT * FROM placements WHERE id = ?", placement);
        assertThat(triple(row)).isEqualTo(expectedRowVersion == 1 ? entity : expectedProjection);
        assertThat(row).containsEntry("row_version", expectedRowVersion);
    }

    private static Triple triple(Map<String, Object> row) {
        return new Triple((String) row.get("assigned_worker_sub"), (String) row.get("supervisor_sub"),
                (Long) row.get("assignment_revision"));
    }

    record Triple(String worker, String supervisor, long revision) {
    }
}
