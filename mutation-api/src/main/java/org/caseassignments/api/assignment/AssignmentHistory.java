package org.caseassignments.api.assignment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Reads of {@code case_assignment_history}, the revisions of a case the projection's writers have seen
 * (decision 32), each with the jurisdiction in force at its revision, whose callers alone read it (decision 40).
 * The API never writes it.
 */
@Repository
class AssignmentHistory {

    /**
     * One revision of a case's assignment; {@code occurredAt} is null for an entry from a snapshot row, and
     * {@code jurisdiction} (the one in force at the revision) null when none is known.
     */
    record Entry(UUID caseId, long revision, String assignedWorkerSub, String supervisorSub, Instant occurredAt,
                 Instant appliedAt, String jurisdiction) {

        /** What the policy sees of the assignment as this entry holds it. */
        ResourceRef resource() {
            return new ResourceRef(ResourceType.CASE_ASSIGNMENT, caseId, caseId, assignedWorkerSub, supervisorSub,
                    Map.of(), jurisdiction);
        }
    }

    private static final String COLUMNS = """
            SELECT case_id, assignment_revision, assigned_worker_sub, supervisor_sub, occurred_at, applied_at,
                   jurisdiction_in_force
              FROM case_assignment_history
            """;

    /** A page of one jurisdiction's entries: the others are not read, so they neither fill a page nor make a next one. */
    private static final String PAGE = COLUMNS + """
             WHERE case_id = ? AND jurisdiction_in_force = ? AND assignment_revision < ?
             ORDER BY assignment_revision DESC
             LIMIT ?
            """;

    /** The newest entry of one jurisdiction: the assignment as the case was when that jurisdiction last held it. */
    private static final String LAST_OF_JURISDICTION = COLUMNS + """
             WHERE case_id = ? AND jurisdiction_in_force = ?
             ORDER BY assignment_revision DESC
             LIMIT 1
            """;

    /** In force at a time: the highest revision that had occurred by then. */
    private static final String AS_OF = COLUMNS + """
             WHERE case_id = ? AND occurred_at <= ?
             ORDER BY assignment_revision DESC
             LIMIT 1
            """;

    /** In force at a revision: that one, or the highest before it the history holds. */
    private static final String AS_OF_REVISION = COLUMNS + """
             WHERE case_id = ? AND assignment_revision <= ?
             ORDER BY assignment_revision DESC
             LIMIT 1
            """;

    private final JdbcTemplate jdbc;

    AssignmentHistory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Newest first, the entries of {@code jurisdiction} below {@code before} (Long.MAX_VALUE for the first page). */
    List<Entry> page(UUID caseId, String jurisdiction, long before, int limit) {
        return jdbc.query(PAGE, AssignmentHistory::map, caseId, jurisdiction, before, limit);
    }

    Optional<Entry> lastOf(UUID caseId, String jurisdiction) {
        return jdbc.query(LAST_OF_JURISDICTION, AssignmentHistory::map, caseId, jurisdiction).stream().findFirst();
    }

    /** The entry in force at a time, whichever jurisdiction's it is. */
    Optional<Entry> asOf(UUID caseId, Instant time) {
        return jdbc.query(AS_OF, AssignmentHistory::map, caseId, OffsetDateTime.ofInstant(time, ZoneOffset.UTC))
                .stream().findFirst();
    }

    /** The entry in force at a revision, whichever jurisdiction's it is. */
    Optional<Entry> asOfRevision(UUID caseId, long revision) {
        return jdbc.query(AS_OF_REVISION, AssignmentHistory::map, caseId, revision).stream().findFirst();
    }

    private static Entry map(ResultSet rs, int row) throws SQLException {
        OffsetDateTime occurred = rs.getObject("occurred_at", OffsetDateTime.class);
        return new Entry(rs.getObject("case_id", UUID.class), rs.getLong("assignment_revision"),
                rs.getString("assigned_worker_sub"), rs.getString("supervisor_sub"),
                occurred == null ? null : occurred.toInstant(), rs.getObject("applied_at", OffsetDateTime.class).toInstant(),
                rs.getString("jurisdiction_in_force"));
    }
}
