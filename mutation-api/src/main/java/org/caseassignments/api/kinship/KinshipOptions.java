package org.caseassignments.api.kinship;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.assignment.CaseAssignments;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.write.Locked;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The kinship option table's statements. Every read and write filters {@code active}: deleted rows do not exist here.
 * A write locks its row after its case's ({@code LockOrder}, store).
 */
@Repository
class KinshipOptions {

    /**
     * The row, with its case's assignment and jurisdiction from the projection (a kinship option inherits the
     * jurisdiction; null while the case's is unknown), not from the row's copy (decision 29).
     */
    private static final String COLUMNS = """
            id, case_id, relative_name, relationship, approved, row_version, created_at, updated_at, created_by,
            """ + CaseAssignments.projectionColumnsOf(CaseScopedTable.KINSHIP_OPTIONS);

    private static final String FIND = "SELECT " + COLUMNS + " FROM kinship_options WHERE id = ? AND active";

    /**
     * {@code AND active} is re-evaluated on the newest row version after a wait for the lock, so a
     * delete that commits first leaves nothing to lock.
     */
    private static final String FIND_FOR_NO_KEY_UPDATE = FIND + " FOR NO KEY UPDATE";

    /** A page of a case's live options; the index on {@code case_id} finds the case's rows. */
    private static final String LIST_BY_CASE = "SELECT " + COLUMNS + " FROM kinship_options WHERE case_id = ? AND active";

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
            """ + CaseAssignments.copyFromProjection(CaseScopedTable.KINSHIP_OPTIONS) + """

             WHERE id = ? AND row_version = ? AND active
            RETURNING\s""" + COLUMNS;

    private static final String SOFT_DELETE = """
            UPDATE kinship_options
               SET active = false, deleted_at = now(), updated_at = now()
             WHERE id = ? AND row_version = ? AND active
            RETURNING\s""" + COLUMNS;

    private final JdbcTemplate jdbc;
    private final CaseAssignments assignments;

    KinshipOptions(JdbcTemplate jdbc, CaseAssignments assignments) {
        this.jdbc = jdbc;
        this.assignments = assignments;
    }

    Optional<KinshipOption> find(UUID id) {
        return one(FIND, id);
    }

    /**
     * Inside the transaction: holds the case {@code FOR SHARE} first (the lock order), then locks the row; the row
     * with the trace of what it held.
     */
    Optional<Locked<KinshipOption>> findForNoKeyUpdate(UUID id) {
        String heldTrace = assignments.holdCaseOf(CaseScopedTable.KINSHIP_OPTIONS, id);
        return one(FIND_FOR_NO_KEY_UPDATE, id).map(row -> new Locked<>(row, heldTrace));
    }

    List<KinshipOption> listByCase(UUID caseId, ListPage.Query query) {
        return query.read(jdbc, LIST_BY_CASE, KinshipOptions::map, caseId);
    }

    KinshipOption insert(UUID id, UUID caseId, CreateKinshipOptionRequest request, ProjectedAssignment assignment,
                         String createdBy) {
        return jdbc.queryForObject(INSERT, KinshipOptions::map, id, caseId, request.relativeName(),
                request.relationship(), Boolean.TRUE.equals(request.approved()),
                assignment.pair().assignedWorkerSub(), assignment.pair().supervisorSub(), assignment.revision(),
                createdBy);
    }

    /** Writes the changed fields over the locked row at its locked version. */
    KinshipOption update(KinshipOption changed) {
        return written(jdbc.query(UPDATE, KinshipOptions::map, changed.relativeName(), changed.relationship(),
                changed.approved(), changed.id(), changed.rowVersion()), changed);
    }

    /** Soft-deletes the locked row at its locked version; returns it as it was written (with its new version). */
    KinshipOption softDelete(KinshipOption locked) {
        return written(jdbc.query(SOFT_DELETE, KinshipOptions::map, locked.id(), locked.rowVersion()), locked);
    }

    private static KinshipOption written(List<KinshipOption> rows, KinshipOption locked) {
        return rows.stream().findFirst().orElseThrow(() ->
                new IllegalStateException("kinship option " + locked.id() + " changed under its row lock"));
    }

    private Optional<KinshipOption> one(String sql, UUID id) {
        return jdbc.query(sql, KinshipOptions::map, id).stream().findFirst();
    }

    private static KinshipOption map(ResultSet rs, int row) throws SQLException {
        return new KinshipOption(
                rs.getObject("id", UUID.class),
                rs.getObject("case_id", UUID.class),
                rs.getString("relative_name"),
                rs.getString("relationship"),
                rs.getBoolean("approved"),
                new AssignmentPair(rs.getString("assigned_worker_sub"), rs.getString("supervisor_sub")),
                rs.getLong("assignment_revision"),
                rs.getLong("row_version"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                rs.getObject("updated_at", OffsetDateTime.class).toInstant(),
                rs.getString("created_by"),
                rs.getString("jurisdiction"),
                rs.getBoolean("copy_differs"));
    }
}
