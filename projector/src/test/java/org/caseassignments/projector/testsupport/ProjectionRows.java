package org.caseassignments.projector.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.springframework.jdbc.core.JdbcTemplate;

/** Reads the projection and the entity rows back, and compares them with an oracle. */
public final class ProjectionRows {

    public record Assignment(String worker, String supervisor, long revision) {
    }

    private ProjectionRows() {
    }

    public static Map<UUID, Assignment> projection(JdbcTemplate jdbc) {
        Map<UUID, Assignment> rows = new HashMap<>();
        jdbc.query("SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision FROM case_assignments",
                rs -> {
                    rows.put(rs.getObject(1, UUID.class), new Assignment(rs.getString(2), rs.getString(3), rs.getLong(4)));
                });
        return rows;
    }

    /** Entity rows (placements and kinship options) whose triple differs from their case's oracle entry. */
    public static List<String> entityRowsOffOracle(JdbcTemplate jdbc, Map<UUID, Assignment> oracle) {
        List<String> off = new java.util.ArrayList<>();
        for (String table : List.of("placements", "kinship_options")) {
            jdbc.query("SELECT id, case_id, assigned_worker_sub, supervisor_sub, assignment_revision FROM " + table,
                    rs -> {
                        UUID caseId = rs.getObject(2, UUID.class);
                        Assignment actual = new Assignment(rs.getString(3), rs.getString(4), rs.getLong(5));
                        Assignment expected = oracle.get(caseId);
                        if (expected != null && !expected.equals(actual)) {
                            off.add(table + " " + rs.getObject(1) + " of case " + caseId + ": " + actual
                                    + ", expected " + expected);
                        }
                    });
        }
        return off;
    }

    /** Waits until every case of the oracle and every entity row of those cases match it. */
    public static void awaitOracle(JdbcTemplate jdbc, CaseHistory history, Duration timeout) {
        Awaitility.await("projection of seed " + history.seed + " reaching its oracle")
                .atMost(timeout).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .untilAsserted(() -> assertMatchesOracle(jdbc, history));
    }

    public static void assertMatchesOracle(JdbcTemplate jdbc, CaseHistory history) {
        Map<UUID, Assignment> projection = projection(jdbc);
        Map<UUID, Assignment> ofOracle = new HashMap<>();
        history.oracle.keySet().forEach(caseId -> ofOracle.put(caseId, projection.get(caseId)));
        assertThat(ofOracle).as("case_assignments for seed %d", history.seed).isEqualTo(history.oracle);
        assertThat(entityRowsOffOracle(jdbc, history.oracle)).as("entity rows for seed %d", history.seed).isEmpty();
    }

    /** Waits until the history of the history's cases is every (case, revision) its events hold, once, first payload. */
    public static void awaitHistory(JdbcTemplate jdbc, CaseHistory history, Duration timeout) {
        Awaitility.await("history of seed " + history.seed + " holding every revision")
                .atMost(timeout).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .untilAsserted(() -> assertHistoryMatches(jdbc, history));
    }

    public static void assertHistoryMatches(JdbcTemplate jdbc, CaseHistory history) {
        java.util.Set<String> expected = new java.util.TreeSet<>();
        history.revisions.forEach((caseId, entries) -> entries.values().forEach(entry -> expected.add(caseId + "@" + entry)));
        List<String> stored = jdbc.query("""
                SELECT case_id, assignment_revision, assigned_worker_sub, supervisor_sub
                  FROM case_assignment_history WHERE case_id = ANY (?::uuid[])""", (rs, row) -> rs.getObject("case_id")
                + "@" + new Assignment(rs.getString("assigned_worker_sub"), rs.getString("supervisor_sub"),
                        rs.getLong("assignment_revision")),
                (Object) history.revisions.keySet().stream().map(UUID::toString).toArray(String[]::new));
        java.util.Set<String> missing = new java.util.TreeSet<>(expected);
        stored.forEach(missing::remove);
        assertThat(missing).as("history entries missing for seed %d (of %d)", history.seed, expected.size()).isEmpty();
        assertThat(stored).as("history entries for seed %d", history.seed).hasSameSizeAs(expected);
    }

    /** Every row of the projection and entity tables with its xmin: equal snapshots mean no row was written. */
    public static List<Map<String, Object>> snapshotWithXmin(JdbcTemplate jdbc) {
        List<Map<String, Object>> rows = new java.util.ArrayList<>();
        rows.addAll(jdbc.queryForList("SELECT 'case_assignments' AS t, xmin::text AS xmin, * FROM case_assignments ORDER BY case_id"));
        rows.addAll(jdbc.queryForList("SELECT 'placements' AS t, xmin::text AS xmin, * FROM placements ORDER BY id"));
        rows.addAll(jdbc.queryForList("SELECT 'kinship_options' AS t, xmin::text AS xmin, * FROM kinship_options ORDER BY id"));
        return rows;
    }
}
