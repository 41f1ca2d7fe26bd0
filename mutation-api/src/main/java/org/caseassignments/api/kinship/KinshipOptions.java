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
import org.caseassignments.api.assignment.HeldAssignment;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.write.Locked;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.hold.HeldCase;
import org.caseassignments.store.kinship.KinshipOptionRows;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The kinship option table's reads, and its locks and writes through {@link KinshipOptionRows} (store). Every read and
 * write filters {@code active}: deleted rows do not exist here. A write locks its row after its case's
 * ({@code LockOrder}, store).
 */
@Repository
class KinshipOptions {

    /** A page of a case's live options; the index on {@code case_id} finds the case's rows. */
    private static final String LIST_BY_CASE =
            "SELECT " + KinshipOptionRows.COLUMNS + " FROM kinship_options WHERE case_id = ? AND active";

    private final JdbcTemplate jdbc;
    private final KinshipOptionRows rows;
    private final CaseAssignments assignments;

    KinshipOptions(JdbcTemplate jdbc, CaseAssignments assignments) {
        this.jdbc = jdbc;
        this.rows = new KinshipOptionRows(jdbc);
        this.assignments = assignments;
    }

    Optional<KinshipOption> find(UUID id) {
        return jdbc.query(KinshipOptionRows.FIND, KinshipOptions::map, id).stream().findFirst();
    }

    /**
     * Inside the transaction: holds the case {@code FOR SHARE} first (the lock order), then locks the row; the row
     * with the trace of what it held.
     */
    Optional<Locked<KinshipOption>> findForNoKeyUpdate(UUID id) {
        HeldCase held = assignments.holdCaseOf(CaseScopedTable.KINSHIP_OPTIONS, id);
        return rows.lockForNoKeyUpdate(held, KinshipOptions::map).map(row -> new Locked<>(row, held));
    }

    List<KinshipOption> listByCase(UUID caseId, ListPage.Query query) {
        return query.read(jdbc, LIST_BY_CASE, KinshipOptions::map, caseId);
    }

    /** A new option in the case held, with the assignment read under the hold. */
    KinshipOption insert(UUID id, HeldAssignment held, CreateKinshipOptionRequest request, String createdBy) {
        ProjectedAssignment assignment = held.assignment();
        return rows.insert(held.hold(), id, request.relativeName(), request.relationship(),
                Boolean.TRUE.equals(request.approved()), assignment.pair().assignedWorkerSub(),
                assignment.pair().supervisorSub(), assignment.revision(), createdBy, KinshipOptions::map);
    }

    /** Writes the changed fields over the locked row, whose case is {@code held}, at its locked version. */
    KinshipOption update(HeldCase held, KinshipOption changed) {
        return written(rows.update(held, changed.rowVersion(), changed.relativeName(), changed.relationship(),
                changed.approved(), KinshipOptions::map), changed);
    }

    /** Soft-deletes the locked row at its locked version; returns it as it was written (with its new version). */
    KinshipOption softDelete(HeldCase held, KinshipOption locked) {
        return written(rows.softDelete(held, locked.rowVersion(), KinshipOptions::map), locked);
    }

    private static KinshipOption written(Optional<KinshipOption> row, KinshipOption locked) {
        return row.orElseThrow(() ->
                new IllegalStateException("kinship option " + locked.id() + " changed under its row lock"));
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
