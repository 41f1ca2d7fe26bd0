package org.caseassignments.backfill;

import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

/** The rows a backfill may write, without timestamps, in a stable order: for comparing two end states. */
public final class Tables {

    private Tables() {
    }

    public static List<Map<String, Object>> projection(JdbcTemplate jdbc) {
        return jdbc.queryForList("""
                SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision
                  FROM case_assignments ORDER BY case_id
                """);
    }

    public static List<Map<String, Object>> entityRows(JdbcTemplate jdbc) {
        return jdbc.queryForList("""
                SELECT 'placement' AS kind, id, case_id, assigned_worker_sub, supervisor_sub, assignment_revision, row_version
                  FROM placements
                UNION ALL
                SELECT 'kinship', id, case_id, assigned_worker_sub, supervisor_sub, assignment_revision, row_version
                  FROM kinship_options
                 ORDER BY 1, 2
                """);
    }

    /**
     * Every row of the three tables and every entry of the assignments' history, with its {@code xmin}: unchanged
     * content and xmin mean the row was never rewritten, and no entry was added, changed or deleted.
     */
    public static List<Map<String, Object>> withXmin(JdbcTemplate jdbc) {
        return jdbc.queryForList("""
                SELECT 'projection' AS kind, case_id AS id, xmin::text AS xmin, assigned_worker_sub, supervisor_sub,
                       assignment_revision, NULL::bigint AS row_version, updated_at
                  FROM case_assignments
                UNION ALL
                SELECT 'placement', id, xmin::text, assigned_worker_sub, supervisor_sub, assignment_revision, row_version, updated_at
                  FROM placements
                UNION ALL
                SELECT 'kinship', id, xmin::text, assigned_worker_sub, supervisor_sub, assignment_revision, row_version, updated_at
                  FROM kinship_options
                UNION ALL
                SELECT 'history', case_id, xmin::text, assigned_worker_sub, supervisor_sub, assignment_revision, NULL,
                       applied_at
                  FROM case_assignment_history
                 ORDER BY 1, 2, 6
                """);
    }

    /** The assignments' history, one {@code case@revision worker/supervisor} per entry, in key order. */
    public static List<String> history(JdbcTemplate jdbc) {
        return jdbc.queryForList("""
                SELECT case_id || '@' || assignment_revision || ' ' || assigned_worker_sub || '/' || supervisor_sub
                  FROM case_assignment_history ORDER BY case_id, assignment_revision
                """, String.class);
    }
}
