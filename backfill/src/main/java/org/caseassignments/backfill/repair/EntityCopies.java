package org.caseassignments.backfill.repair;

import java.io.PrintWriter;
import java.util.List;
import java.util.UUID;

import org.caseassignments.backfill.SummaryLines;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Placement and kinship rows whose assignment copy differs from their case's projection row. Rows of a case the
 * projection does not know yet (absent, or a placeholder) are not counted: they wait for the case's first event.
 */
public final class EntityCopies {

    /** A copy {@code e} against its case's row {@code ca}; the follow's own condition, so repair finds what it fixes. */
    private static final String BEHIND_OR_OTHER_PAIR = """
            (e.assignment_revision < ca.assignment_revision
             OR (e.assignment_revision = ca.assignment_revision
                 AND (e.assigned_worker_sub, e.supervisor_sub) IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub)))""";

    private static final String COUNT_ONE_TABLE = """
            SELECT count(*) FILTER (WHERE e.assignment_revision < ca.assignment_revision) AS behind,
                   count(*) FILTER (WHERE e.assignment_revision = ca.assignment_revision
                                      AND (e.assigned_worker_sub, e.supervisor_sub)
                                          IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub)) AS other_pair,
                   count(*) FILTER (WHERE e.assignment_revision > ca.assignment_revision) AS ahead
              FROM %s e JOIN case_assignments ca ON ca.case_id = e.case_id
             WHERE ca.assignment_revision >= 0
            """;

    /** The next cases, in case-id order after a given one, with a copy the follow would change. */
    private static final String NEXT_CASES = """
            SELECT case_id FROM (
                SELECT e.case_id FROM placements e JOIN case_assignments ca ON ca.case_id = e.case_id
                 WHERE (?::uuid IS NULL OR e.case_id > ?) AND ca.assignment_revision >= 0 AND %1$s
                UNION
                SELECT e.case_id FROM kinship_options e JOIN case_assignments ca ON ca.case_id = e.case_id
                 WHERE (?::uuid IS NULL OR e.case_id > ?) AND ca.assignment_revision >= 0 AND %1$s) AS differing
             ORDER BY case_id
             LIMIT ?
            """.formatted(BEHIND_OR_OTHER_PAIR);

    /** Per table: copies behind their case's revision, at its revision with another pair, and ahead of it. */
    public record Counts(long[] placements, long[] kinship) {

        /** Copies the repair brings along: behind, or another pair at the same revision. */
        public long repairable() {
            return placements[0] + placements[1] + kinship[0] + kinship[1];
        }

        public long differing() {
            return repairable() + placements[2] + kinship[2];
        }

        public void print(PrintWriter out) {
            out.println("  placement and kinship copies that differ from their case's projection row:");
            SummaryLines.count(out, "placements behind", placements[0]);
            SummaryLines.count(out, "placements, same revision, other pair", placements[1]);
            SummaryLines.count(out, "placements ahead (never lowered)", placements[2]);
            SummaryLines.count(out, "kinship options behind", kinship[0]);
            SummaryLines.count(out, "kinship, same revision, other pair", kinship[1]);
            SummaryLines.count(out, "kinship options ahead (never lowered)", kinship[2]);
        }
    }

    private final JdbcTemplate jdbc;

    public EntityCopies(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Counts count() {
        return new Counts(countIn("placements"), countIn("kinship_options"));
    }

    /** Up to {@code limit} cases after {@code after} (null: from the first), in case-id order, with a copy the repair would change. */
    List<UUID> nextCases(UUID after, int limit) {
        return jdbc.queryForList(NEXT_CASES, UUID.class, after, after, after, after, limit);
    }

    private long[] countIn(String table) {
        return jdbc.queryForObject(COUNT_ONE_TABLE.formatted(table), (rs, i) ->
                new long[] {rs.getLong("behind"), rs.getLong("other_pair"), rs.getLong("ahead")});
    }
}
