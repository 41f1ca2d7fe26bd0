package org.caseassignments.store.history;

import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The entries of {@code case_assignment_history} older than a horizon that an entry of the same case, also older,
 * supersedes: for each case the newest such entry stays, as it was in force at that moment. One of the writers
 * {@link org.caseassignments.store.LockOrder} names; it deletes history rows only, and takes no lock of the order.
 */
public final class SupersededHistory {

    private static final String NEXT_CASES = """
            SELECT DISTINCT case_id FROM case_assignment_history
             WHERE ?::uuid IS NULL OR case_id > ?::uuid
             ORDER BY case_id
             LIMIT ?
            """;

    /** The entries of the given cases that an entry of the same case, also before the horizon, supersedes. */
    private static final String SUPERSEDED = """
            FROM case_assignment_history h
             WHERE h.case_id = ANY (?::uuid[])
               AND coalesce(h.occurred_at, h.applied_at) < ?
               AND EXISTS (SELECT 1 FROM case_assignment_history newer
                            WHERE newer.case_id = h.case_id
                              AND newer.assignment_revision > h.assignment_revision
                              AND coalesce(newer.occurred_at, newer.applied_at) < ?)
            """;

    private final JdbcTemplate jdbc;

    public SupersededHistory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code limit} cases with history, in case-id order, after {@code after} (from the first when null). */
    public List<UUID> nextCases(UUID after, int limit) {
        return jdbc.queryForList(NEXT_CASES, UUID.class, after, after, limit);
    }

    /** How many entries of {@code cases} older than {@code horizon} are superseded: what {@link #delete} would delete. */
    public Long count(List<UUID> cases, Timestamp horizon) {
        return jdbc.queryForObject("SELECT count(*) " + SUPERSEDED, Long.class, ids(cases), horizon, horizon);
    }

    /** Deletes the superseded entries of {@code cases} older than {@code horizon}, in the caller's transaction. */
    public int delete(List<UUID> cases, Timestamp horizon) {
        return jdbc.update("DELETE " + SUPERSEDED, ids(cases), horizon, horizon);
    }

    private static Object ids(List<UUID> cases) {
        return cases.stream().map(UUID::toString).toArray(String[]::new);
    }
}
