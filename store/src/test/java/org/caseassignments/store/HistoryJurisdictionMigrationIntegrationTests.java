package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.caseassignments.testkit.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** V12 gives the entries recorded before it the jurisdiction in force at their revision. */
class HistoryJurisdictionMigrationIntegrationTests {

    @Test
    void shouldGiveEachExistingEntryTheJurisdictionInForceAtItsRevision() {
        // Given a database at V11 whose history holds a case created in texas and moved to georgia, with entries
        // that carried no jurisdiction between, and a case whose entries never carried one
        TestDatabase db = TestDatabase.empty();
        Flyway.configure().dataSource(db.jdbcUrl(), db.username(), db.password()).locations("classpath:db/migration")
                .target("11").load().migrate();
        JdbcTemplate jdbc = db.jdbc();
        UUID moved = UUID.randomUUID();
        UUID unknown = UUID.randomUUID();
        String insert = """
                INSERT INTO case_assignment_history (case_id, assignment_revision, assigned_worker_sub, supervisor_sub,
                                                     jurisdiction)
                VALUES (?, ?, 'w', 's', ?)""";
        jdbc.update(insert, moved, 0, "texas");
        jdbc.update(insert, moved, 1, null);
        jdbc.update(insert, moved, 2, "georgia");
        jdbc.update(insert, moved, 3, null);
        jdbc.update(insert, unknown, 0, null);

        // When V12 runs
        db.migrate();

        // Then the moved case's entries are texas's up to the move and georgia's from it; the other's none
        assertThat(inForce(jdbc, moved)).containsExactly(Map.entry(0L, "texas"), Map.entry(1L, "texas"),
                Map.entry(2L, "georgia"), Map.entry(3L, "georgia"));
        assertThat(inForce(jdbc, unknown)).containsExactly(Map.entry(0L, "null"));
    }

    private static Map<Long, String> inForce(JdbcTemplate jdbc, UUID caseId) {
        Map<Long, String> entries = new TreeMap<>();
        jdbc.query("SELECT assignment_revision, jurisdiction_in_force FROM case_assignment_history WHERE case_id = ?",
                rs -> {
                    entries.put(rs.getLong(1), String.valueOf(rs.getString(2)));
                }, caseId);
        return entries;
    }
}
