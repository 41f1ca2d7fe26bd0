package org.caseassignments.store.placement;

import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.hold.CaseHold;
import org.caseassignments.store.hold.HeldCase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The placement table's locks and writes, the third step of the lock order, after the case's hold, which each takes
 * ({@link HeldCase}): the insert, the locked re-read and the update. Each returns the row as {@link #COLUMNS} reads it, mapped by the caller.
 */
public final class PlacementRows {

    /**
     * The row, with its case's assignment and jurisdiction from the projection (a placement inherits the
     * jurisdiction; null while the case's is unknown), not from the row's copy (decision 29).
     */
    public static final String COLUMNS = """
            id, case_id, status, foster_home_id, start_date, end_date, row_version, created_at, updated_at, created_by,
            """ + CaseHold.projectionColumnsOf(CaseScopedTable.PLACEMENTS);

    /** The row by its id, without a lock. */
    public static final String FIND = "SELECT " + COLUMNS + " FROM placements WHERE id = ?";

    /** No key column changes, so the weaker lock: it still excludes every other writer of the row. */
    private static final String FIND_FOR_NO_KEY_UPDATE = FIND + " FOR NO KEY UPDATE";

    private static final String INSERT = """
            INSERT INTO placements (id, case_id, status, foster_home_id, start_date, end_date,
                                    assigned_worker_sub, supervisor_sub, assignment_revision, created_by)
            VALUES (?, ?, 'PROPOSED', ?, ?, ?, ?, ?, ?, ?)
            RETURNING\s""" + COLUMNS;

    /** The database moves {@code row_version} on every UPDATE (V15); the WHERE names the version the write read. */
    private static final String UPDATE = """
            UPDATE placements
               SET status = ?, foster_home_id = ?, start_date = ?, end_date = ?,
                   updated_at = now(),
            """ + CaseHold.copyFromProjection(CaseScopedTable.PLACEMENTS) + """

             WHERE id = ? AND row_version = ?
            RETURNING\s""" + COLUMNS;

    private final JdbcTemplate jdbc;

    public PlacementRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the transaction, after its case's hold: the row locked until commit; empty when there is none. */
    public <T> Optional<T> lockForNoKeyUpdate(HeldCase held, RowMapper<T> rows) {
        return jdbc.query(FIND_FOR_NO_KEY_UPDATE, rows, held.rowId(CaseScopedTable.PLACEMENTS)).stream().findFirst();
    }

    /**
     * A new PROPOSED placement in the case {@code held} by its id ({@code CaseHold.forShare}), with the assignment of
     * its case read under that hold; the occupancy gate's refusals (decision 22) are the caller's to translate.
     */
    public <T> T insert(HeldCase held, UUID id, UUID fosterHomeId, LocalDate startDate, LocalDate endDate,
                        String assignedWorkerSub, String supervisorSub, long assignmentRevision, String createdBy,
                        RowMapper<T> rows) {
        return jdbc.queryForObject(INSERT, rows, id, held.caseId(), fosterHomeId, startDate, endDate, assignedWorkerSub,
                supervisorSub, assignmentRevision, createdBy);
    }

    /**
     * Writes the given fields over the row whose case is {@code held}, locked at its locked version, and brings its
     * assignment copy to the projection's; empty when no row of that version is left.
     */
    public <T> Optional<T> update(HeldCase held, long rowVersion, String status, UUID fosterHomeId, LocalDate startDate,
                                  LocalDate endDate, RowMapper<T> rows) {
        return jdbc.query(UPDATE, rows, status, fosterHomeId, startDate, endDate,
                held.rowId(CaseScopedTable.PLACEMENTS), rowVersion).stream().findFirst();
    }
}
