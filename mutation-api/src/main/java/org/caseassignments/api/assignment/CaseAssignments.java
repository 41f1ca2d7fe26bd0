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
import org.caseassignments.store.hold.CaseHold;
import org.caseassignments.store.hold.HeldCase;
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

    private final JdbcTemplate jdbc;
    private final CaseHold hold;
    private final Timer age;

    CaseAssignments(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.hold = new CaseHold(jdbc);
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
        return hold.forShare(caseId, first, CaseAssignments::held);
    }

    /**
     * Inside the caller's transaction, before it locks a placement or kinship option row: holds the row's case
     * {@code FOR SHARE} until commit, so the case's jurisdiction cannot move while the write compares and commits.
     * The first two steps of the writers' lock order ({@link LockOrder}): the case's queue, then its row
     * ({@link CaseHold#ofRow}).
     *
     * @param table the case-scoped table of the row the caller locks next
     * @return the hold, which the row's locked read, update and delete take, with the trace id of the event that set
     *         the projection row it holds, which the caller passes on to what it records (null when that event carried
     *         none, or there is no such row); the trace is also put in the request's log context from now on
     *         (decision 34).
     */
    public HeldCase holdCaseOf(LockOrder.CaseScopedTable table, UUID entityId) {
        HeldCase held = hold.ofRow(table, entityId);
        RequestIds.logAssignmentTrace(held.traceId());
        return held;
    }

    /**
     * The row held, with the hold and the trace id of the event that set it, which the caller passes on to what it records; also
     * put in the request's log context from now on, for its log lines and any problem document (decision 34).
     */
    private static HeldAssignment held(ResultSet rs, HeldCase hold) throws SQLException {
        HeldAssignment held = new HeldAssignment(map(rs, 0), hold);
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
