package org.caseassignments.api.assignment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.caseassignments.api.jdbc.OneRoundTrip;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Reads of the projection; what a missing row or a placeholder means is decided by {@link CaseAssignment}. */
@Repository
public class CaseAssignments {

    private static final String FIND = """
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction
              FROM case_assignments
             WHERE case_id = ?
            """;

    /**
     * The row as a decision reads it, with how long ago the projection wrote it, by the database's clock:
     * what an operator compares with the projector's lag to see what the API authorizes against.
     */
    private static final String READ = """
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction,
                   (EXTRACT(EPOCH FROM statement_timestamp() - updated_at) * 1000)::bigint AS age_millis
              FROM case_assignments
             WHERE case_id = ?
            """;

    static final String AGE_METRIC = "api.projection.age";

    /** Blocks the projector's upsert of this row (it takes a row lock first) until the holder commits. */
    private static final String FIND_FOR_SHARE = FIND + " FOR SHARE";

    /**
     * The same hold, taken by an update of a case-scoped row before it locks that row: the case's jurisdiction
     * is an input of the decision, and the projection row is locked first, as the projector does.
     */
    private static final String HOLD_CASE_OF = """
            SELECT 1 FROM case_assignments
             WHERE case_id = (SELECT case_id FROM %s WHERE id = ?)
               FOR SHARE
            """;

    private final JdbcTemplate jdbc;
    private final Timer age;

    CaseAssignments(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.age = Timer.builder(AGE_METRIC)
                .description("how long before a decision the projection wrote the assignment it authorized against")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofDays(30)).register(meters);
    }

    /**
     * The projection as it is now, unknown when there is no row; read from the pool, never in a transaction,
     * to decide on. Records the age of a known row in {@code api.projection.age}.
     */
    public CaseAssignment read(UUID caseId) {
        return jdbc.query(READ, (rs, row) -> {
            CaseAssignment assignment = map(rs, row);
            if (assignment.known()) {
                age.record(Duration.ofMillis(Math.max(0, rs.getLong("age_millis"))));
            }
            return assignment;
        }, caseId).stream().findFirst().orElseGet(() -> CaseAssignment.unknown(caseId));
    }

    /**
     * Inside the caller's transaction: the row, locked {@code FOR SHARE} until commit; empty when there is none.
     * {@code first}, when given, runs before it in the same round trip.
     */
    public Optional<CaseAssignment> readForShare(UUID caseId, OneRoundTrip.Along first) {
        return (first == null ? jdbc.query(FIND_FOR_SHARE, CaseAssignments::map, caseId)
                : OneRoundTrip.query(jdbc, first, FIND_FOR_SHARE, CaseAssignments::map, caseId)).stream().findFirst();
    }

    /**
     * Inside the caller's transaction, before it locks a placement or kinship option row: holds the row's case
     * {@code FOR SHARE} until commit, so the case's jurisdiction cannot move while the write compares and commits.
     *
     * @param table {@code placements} or {@code kinship_options}
     */
    public void holdCaseOf(String table, UUID entityId) {
        if (!table.equals("placements") && !table.equals("kinship_options")) {
            throw new IllegalArgumentException("not a case-scoped table: " + table);
        }
        jdbc.query(HOLD_CASE_OF.formatted(table), rs -> { }, entityId);
    }

    private static CaseAssignment map(ResultSet rs, int row) throws SQLException {
        long revision = rs.getLong("assignment_revision");
        UUID caseId = rs.getObject("case_id", UUID.class);
        return revision < 0 ? CaseAssignment.unknown(caseId)
                : new CaseAssignment(caseId, new AssignmentPair(rs.getString("assigned_worker_sub"),
                        rs.getString("supervisor_sub")), revision, rs.getString("jurisdiction"));
    }
}
