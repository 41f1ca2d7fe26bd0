package org.caseassignments.store.hold;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.store.LockOrder;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * An API write's hold of its case: the first two steps of the writers' lock order ({@link LockOrder}), the case's
 * queue (shared), then its projection row {@code FOR SHARE}, both held until the caller's transaction ends. A create
 * holds the case it creates in ({@link #forShare}); an update of a case-scoped row holds the row's case
 * ({@link #ofRow}) before it locks the row. Each returns a {@link HeldCase}, which every lock and write of a
 * case-scoped row takes; both refuse to run outside a transaction, where the hold would end with the statement.
 */
public final class CaseHold {

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

    private final JdbcTemplate jdbc;

    public CaseHold(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

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
    public static String projectionColumnsOf(CaseScopedTable table) {
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
    public static String copyFromProjection(CaseScopedTable table) {
        return """
                assigned_worker_sub = (SELECT ca.assigned_worker_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id),
                supervisor_sub = (SELECT ca.supervisor_sub FROM case_assignments ca WHERE ca.case_id = %1$s.case_id),
                assignment_revision = (SELECT ca.assignment_revision FROM case_assignments ca WHERE ca.case_id = %1$s.case_id)"""
                .formatted(table.table());
    }

    /**
     * Inside the caller's transaction: the case's projection row, locked {@code FOR SHARE} until commit, as
     * {@code rows} maps it from {@code case_id, assigned_worker_sub, supervisor_sub, assignment_revision,
     * jurisdiction, trace_id} (the trace of the event that set it) with the hold, which an insert into the case
     * takes; empty when there is none. {@code first}, when given, runs before it in the same round trip.
     *
     * @throws IllegalStateException outside a transaction
     */
    public <T> Optional<T> forShare(UUID caseId, OneRoundTrip.PairedStatement first, HeldRowMapper<T> rows) {
        requireTransaction();
        RowMapper<T> held =
                (rs, row) -> rows.mapRow(rs, HeldCase.ofCase(caseId, rs.getString("trace_id")));
        return (first == null ? jdbc.query(FIND_FOR_SHARE, held, caseId, caseId)
                : OneRoundTrip.query(jdbc, first, FIND_FOR_SHARE, held, caseId, caseId))
                .stream().findFirst();
    }

    /**
     * Inside the caller's transaction, before it locks a placement or kinship option row: holds the row's case
     * {@code FOR SHARE} until commit, so the case's jurisdiction cannot move while the write compares and commits.
     * The caller compares the row it then locks, whose assignment columns are read from this projection row under
     * the hold ({@link #projectionColumnsOf}).
     *
     * @param table the case-scoped table of the row the caller locks next
     * @return the hold, which the row's locked read, update and delete take, with the trace id of the event that set
     *         the projection row it holds
     * @throws IllegalStateException outside a transaction
     */
    public HeldCase ofRow(CaseScopedTable table, UUID rowId) {
        requireTransaction();
        List<String> held = jdbc.query(HOLD_CASE_OF.formatted(table.table(), LockOrder.queueShared("case_id")),
                (rs, row) -> rs.getString("trace_id"), rowId);
        return HeldCase.ofRow(table, rowId, held.isEmpty() ? null : held.get(0));
    }

    /** Outside a transaction the locks would end with the statement: nothing would be held. */
    private static void requireTransaction() {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a case's hold lasts until its transaction ends; there is no transaction");
        }
    }

    /** Maps the projection row held, with the hold. */
    @FunctionalInterface
    public interface HeldRowMapper<T> {
        T mapRow(ResultSet rs, HeldCase held) throws SQLException;
    }
}
