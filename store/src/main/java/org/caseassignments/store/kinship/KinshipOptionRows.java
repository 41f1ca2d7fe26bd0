package org.caseassignments.store.kinship;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.hold.CaseHold;
import org.caseassignments.store.hold.HeldCase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The kinship option table's locks and writes, the third step of the lock order, after the case's hold, which each
 * takes ({@link HeldCase}): the insert, the locked re-read, the update and the soft delete. Every one filters {@code active}: deleted rows do not exist
 * here. Each returns the row as {@link #COLUMNS} reads it, mapped by the caller.
 */
public final class KinshipOptionRows {

    /**
     * The row, with its case's assignment and jurisdiction from the projection (a kinship option inherits the
     * jurisdiction; null while the case's is unknown), not from the row's copy (decision 29).
     */
    public static final String COLUMNS = """
            id, case_id, relative_name, relationship, approved, row_version, created_at, updated_at, created_by,
            """ + CaseHold.projectionColumnsOf(CaseScopedTable.KINSHIP_OPTIONS);

    /** The live row by its id, without a lock. */
    public static final String FIND = "SELECT " + COLUMNS + " FROM kinship_options WHERE id = ? AND active";

    /**
     * {@code AND active} is re-evaluated on the newest row version after a wait for the lock, so a
     * delete that commits first leaves nothing to lock.
     */
    private static final String FIND_FOR_NO_KEY_UPDATE = FIND + " FOR NO KEY UPDATE";

    private static final String INSERT = """
            INSERT INTO kinship_options (id, case_id, relative_name, relationship, approved,
                                         assigned_worker_sub, supervisor_sub, assignment_revision, created_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING\s""" + COLUMNS;

    /** The database moves {@code row_version} on every UPDATE, the soft delete's too (V15). */
    private static final String UPDATE = """
            UPDATE kinship_options
               SET relative_name = ?, relationship = ?, approved = ?,
                   updated_at = now(),
            """ + CaseHold.copyFromProjection(CaseScopedTable.KINSHIP_OPTIONS) + """

             WHERE id = ? AND row_version = ? AND active
            RETURNING\s""" + COLUMNS;

    private static final String SOFT_DELETE = """
            UPDATE kinship_options
               SET active = false, deleted_at = now(), updated_at = now()
             WHERE id = ? AND row_version = ? AND active
            RETURNING\s""" + COLUMNS;

    private final JdbcTemplate jdbc;

    public KinshipOptionRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the transaction, after its case's hold: the live row locked until commit; empty when there is none. */
    public <T> Optional<T> lockForNoKeyUpdate(HeldCase held, RowMapper<T> rows) {
        return jdbc.query(FIND_FOR_NO_KEY_UPDATE, rows, held.rowId(CaseScopedTable.KINSHIP_OPTIONS))
                .stream().findFirst();
    }

    /**
     * A new option in the case {@code held} by its id ({@code CaseHold.forShare}), with the assignment of its case
     * read under that hold.
     */
    public <T> T insert(HeldCase held, UUID id, String relativeName, String relationship, boolean approved,
                        String assignedWorkerSub, String supervisorSub, long assignmentRevision, String createdBy,
                        RowMapper<T> rows) {
        return jdbc.queryForObject(INSERT, rows, id, held.caseId(), relativeName, relationship, approved, assignedWorkerSub,
                supervisorSub, assignmentRevision, createdBy);
    }

    /**
     * Writes the given fields over the live row whose case is {@code held}, locked at its locked version, and brings
     * its assignment copy to the projection's; empty when no live row of that version is left.
     */
    public <T> Optional<T> update(HeldCase held, long rowVersion, String relativeName, String relationship, boolean approved,
                                  RowMapper<T> rows) {
        return jdbc.query(UPDATE, rows, relativeName, relationship, approved,
                held.rowId(CaseScopedTable.KINSHIP_OPTIONS), rowVersion).stream().findFirst();
    }

    /**
     * Soft-deletes the live row whose case is {@code held}, locked at its locked version; empty when no live row of
     * that version is left.
     */
    public <T> Optional<T> softDelete(HeldCase held, long rowVersion, RowMapper<T> rows) {
        return jdbc.query(SOFT_DELETE, rows, held.rowId(CaseScopedTable.KINSHIP_OPTIONS), rowVersion)
                .stream().findFirst();
    }
}
