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
 * (decision 32), each with the jurisdiction in force at its revision, computed as it is read, whose callers alone
 * read it (decision 40).
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

    /**
     * A case's entries, each with the jurisdiction in force at it (decision 40), computed from the history and the
     * projection row as it is read, never stored: from the case's highest entry whose event carried a jurisdiction
     * upward (all of them when none carried one), the projection row's jurisdiction, the case's owner now, as every
     * other read of the case; below it, the jurisdiction of the nearest entry at or below that carried one (none when
     * none did). A case with no projection row has no entries in force for anyone. Each lookup is one probe of
     * the index of carriers (V12).
     */
    private static final String ENTRIES = """
            SELECT h.case_id, h.assignment_revision, h.assigned_worker_sub, h.supervisor_sub, h.occurred_at,
                   h.applied_at,
                   CASE WHEN last_carrier.revision IS NULL OR h.assignment_revision >= last_carrier.revision
                        THEN p.jurisdiction
                        ELSE (SELECT carrier.jurisdiction
                                FROM case_assignment_history carrier
                               WHERE carrier.case_id = h.case_id
                                 AND carrier.assignment_revision <= h.assignment_revision
                                 AND carrier.jurisdiction IS NOT NULL
                               ORDER BY carrier.assignment_revision DESC
                               LIMIT 1)
                   END AS jurisdiction_in_force
              FROM case_assignments p
              JOIN case_assignment_history h ON h.case_id = p.case_id
             CROSS JOIN LATERAL (SELECT max(carrier.assignment_revision) AS revision
                                   FROM case_assignment_history carrier
                                  WHERE carrier.case_id = p.case_id AND carrier.jurisdiction IS NOT NULL) last_carrier
             WHERE p.case_id = ?
            """;

    /** A page of one jurisdiction's entries: the others are not answered, so they neither fill a page nor make a next one. */
    private static final String CARRIED = """
            SELECT EXISTS (SELECT 1 FROM case_assignment_history
                            WHERE case_id = ? AND jurisdiction = ? AND jurisdiction IS NOT NULL)
            """;
    private static final String PAGE = """
            SELECT * FROM (""" + ENTRIES + """
                AND h.assignment_revision < ?) entry
             WHERE entry.jurisdiction_in_force = ?
             ORDER BY entry.assignment_revision DESC
             LIMIT ?
            """;

    /** In force at a time: the highest revision that had occurred by then. */
    private static final String AS_OF = ENTRIES + """
               AND h.occurred_at <= ?
             ORDER BY h.assignment_revision DESC
             LIMIT 1
            """;

    /** In force at a revision: that one, or the highest before it the history holds. */
    private static final String AS_OF_REVISION = ENTRIES + """
               AND h.assignment_revision <= ?
             ORDER BY h.assignment_revision DESC
             LIMIT 1
            """;

    private final JdbcTemplate jdbc;

    AssignmentHistory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Newest first, the entries of {@code jurisdiction} below {@code before} (Long.MAX_VALUE for the first page). */
    List<Entry> page(UUID caseId, String jurisdiction, long before, int limit) {
        return jdbc.query(PAGE, AssignmentHistory::map, caseId, before, jurisdiction, limit);
    }

    /**
     * The newest entry of one jurisdiction: the assignment as the case was when that jurisdiction last held it. None,
     * without reading the case's entries, for a jurisdiction no event of the case ever carried: a former
     * jurisdiction's period starts at an entry that carried it, so the answer to a jurisdiction that never held the
     * case costs the same, whatever the length of the case's history (V12's index of carriers).
     */
    Optional<Entry> lastOf(UUID caseId, String jurisdiction) {
        if (!Boolean.TRUE.equals(jdbc.queryForObject(CARRIED, Boolean.class, caseId, jurisdiction))) {
            return Optional.empty();
        }
        return page(caseId, jurisdiction, Long.MAX_VALUE, 1).stream().findFirst();
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
