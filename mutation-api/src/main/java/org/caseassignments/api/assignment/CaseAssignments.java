package org.caseassignments.api.assignment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.store.LockOrder;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Reads of the projection; what a missing row or a placeholder means is decided by {@link ProjectedAssignment}. */
@Repository
public class CaseAssignments {

    /**
     * The row as a decision reads it, with how long ago the projection wrote it, by the database's clock:
     * what an operator compares with the projector's lag to see what the API authorizes against.
     */
    private static final String READ = """
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction,
                   (EXTRACT(EPOCH FROM statement_timestamp() - updated_at) * 1000)::bigint AS age_millis
              FROM case_assignments
            """;
    private static final String READ_ONE = READ + " WHERE case_id = ?";
    /** The same, for many cases in one query: what wakes every waiter of the cases a commit moved. */
    private static final String READ_ALL = READ + " WHERE case_id = ANY (?::uuid[])";

    static final String AGE_METRIC = "api.projection.age";

    /**
     * Blocks the projector's upsert of this row (it takes a row lock first) until the holder commits. The case's
     * queue is taken first, in the same statement (the materialized CTE runs before the row is locked), so a
     * projector already queued for the case goes ahead of this write instead of waiting behind every new one
     * ({@link LockOrder}, decision 33).
     */
    private static final String FIND_FOR_SHARE = """
            WITH queued AS MATERIALIZED (SELECT ?::uuid AS case_id, %s AS place)
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction, trace_id
              FROM case_assignments
             WHERE case_id = (SELECT case_id FROM queued)
               FOR SHARE
            """.formatted(LockOrder.queueShared("?::uuid"));

    /**
     * The same hold, taken by an update of a case-scoped row before it locks that row: the case's jurisdiction
     * is an input of the decision, and the projection row is locked first, as the projector does; the case's
     * queue before it, as above.
     */
    private static final String HOLD_CASE_OF = """
            WITH queued AS MATERIALIZED (SELECT case_id, %2$s AS place FROM %1$s WHERE id = ?)
            SELECT trace_id
              FROM case_assignments
             WHERE case_id = (SELECT case_id FROM queued)
               FOR SHARE
            """;

    /**
     * The columns a case-scoped row is read with, as the policy sees it: its case's assignment and
     * jurisdiction from the projection, never from the copy on the row. A copy can be left ahead of its
     * case (a rebuild swap or an undo that lowered the case, decision 29); the projection row, which an
     * update holds {@code FOR SHARE} before it locks the row, is the authority. Named like the row's own
     * columns, so the row's mapper reads them unchanged; {@code copy_differs} says the row's copy is not the
     * projection's assignment, which its ETag must then name (decision 44).
     *
     * @param table the case-scoped table the row is read from
     */
    public static String projectionColumnsOf(LockOrder.CaseScopedTable table) {
        return """
                (SELECT ca.assigned_worker_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id) AS assigned_worker_sub,
                (SELECT ca.supervisor_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id) AS supervisor_sub,
                (SELECT ca.assignment_revision FROM case_assignments ca WHERE ca.case_id = %1$s.case_id) AS assignment_revision,
                (SELECT ca.jurisdiction FROM case_assignments ca WHERE ca.case_id = %1$s.case_id) AS jurisdiction,
                COALESCE((SELECT (ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision)
                                 IS DISTINCT FROM (%1$s.assigned_worker_sub, %1$s.supervisor_sub, %1$s.assignment_revision)
                            FROM case_assignments ca WHERE ca.case_id = %1$s.case_id), true) AS copy_differs"""
                .formatted(table.table());
    }

    /**
     * The {@code SET} items of an update that bring the row's copy to its case's projection row (held
     * {@code FOR SHARE} by then): the write repairs a copy left ahead, so the projector's next event for
     * the case reaches the row again.
     */
    public static String copyFromProjection(LockOrder.CaseScopedTable table) {
        return """
                assigned_worker_sub = (SELECT ca.assigned_worker_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id),
                supervisor_sub = (SELECT ca.supervisor_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id),
                assignment_revision = (SELECT ca.assignment_revision FROM case_assignments ca WHERE ca.case_id = %1$s.case_id)"""
                .formatted(table.table());
    }

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
    public ProjectedAssignment read(UUID caseId) {
        return jdbc.query(READ_ONE, this::aged, caseId).stream().findFirst()
                .orElseGet(() -> ProjectedAssignment.unknown(caseId));
    }

    /**
     * The projection of each of {@code cases} as it is now, in one query, from the pool; a case with no row is left
     * out. Records the age of each known row, as {@link #read} does.
     */
    List<ProjectedAssignment> readAll(Collection<UUID> cases) {
        return jdbc.query(READ_ALL, this::aged, (Object) cases.stream().map(UUID::toString).toArray(String[]::new));
    }

    private ProjectedAssignment aged(ResultSet rs, int row) throws SQLException {
        ProjectedAssignment assignment = map(rs, row);
        if (assignment.known()) {
            age.record(Duration.ofMillis(Math.max(0, rs.getLong("age_millis"))));
        }
        return assignment;
    }

    /**
     * Inside the caller's transaction: the row, locked {@code FOR SHARE} until commit, with the trace of the event
     * that set it; empty when there is none. {@code first}, when given, runs before it in the same round trip.
     */
    public Optional<HeldAssignment> readForShare(UUID caseId, OneRoundTrip.PairedStatement first) {
        return (first == null ? jdbc.query(FIND_FOR_SHARE, CaseAssignments::held, caseId, caseId)
                : OneRoundTrip.query(jdbc, first, FIND_FOR_SHARE, CaseAssignments::held, caseId, caseId))
                .stream().findFirst();
    }

    /**
     * Inside the caller's transaction, before it locks a placement or kinship option row: holds the row's case
     * {@code FOR SHARE} until commit, so the case's jurisdiction cannot move while the write compares and commits.
     * The first two steps of the writers' lock order ({@link LockOrder}): the case's queue, then its row.
     * The caller compares the row it then locks, whose assignment columns are read from this projection row under
     * the hold ({@link #projectionColumnsOf}): the hold itself returns only the trace.
     *
     * @param table the case-scoped table of the row the caller locks next
     * @return the trace id of the event that set the row it holds, which the caller passes on to what it records;
     *         null when that event carried none, or there is no such row. Also put in the request's log context
     *         from now on (decision 34).
     */
    public String holdCaseOf(LockOrder.CaseScopedTable table, UUID entityId) {
        List<String> held = jdbc.query(HOLD_CASE_OF.formatted(table.table(), LockOrder.queueShared("case_id")),
                (rs, row) -> rs.getString("trace_id"), entityId);
        String traceId = held.isEmpty() ? null : held.get(0);
        RequestIds.logAssignmentTrace(traceId);
        return traceId;
    }

    /**
     * The row held, with the trace id of the event that set it, which the caller passes on to what it records; also
     * put in the request's log context from now on, for its log lines and any problem document (decision 34).
     */
    private static HeldAssignment held(ResultSet rs, int row) throws SQLException {
        HeldAssignment held = new HeldAssignment(map(rs, row), rs.getString("trace_id"));
        RequestIds.logAssignmentTrace(held.traceId());
        return held;
    }

    private static ProjectedAssignment map(ResultSet rs, int row) throws SQLException {
        long revision = rs.getLong("assignment_revision");
        UUID caseId = rs.getObject("case_id", UUID.class);
        return revision < 0 ? ProjectedAssignment.unknown(caseId)
                : new ProjectedAssignment(caseId, new AssignmentPair(rs.getString("assigned_worker_sub"),
                        rs.getString("supervisor_sub")), revision, rs.getString("jurisdiction"));
    }
}
