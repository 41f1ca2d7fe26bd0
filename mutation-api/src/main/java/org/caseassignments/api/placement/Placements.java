package org.caseassignments.api.placement;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.assignment.CaseAssignments;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.write.HomeGateRefusals;
import org.caseassignments.api.write.Locked;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The placement table's statements; a write locks its row after its case's ({@code LockOrder}, store). */
@Repository
class Placements {

    /**
     * The row, with its case's assignment and jurisdiction from the projection (a placement inherits the
     * jurisdiction; null while the case's is unknown), not from the row's copy (decision 29).
     */
    private static final String COLUMNS = """
            id, case_id, status, foster_home_id, start_date, end_date, row_version, created_at, updated_at, created_by,
            """ + CaseAssignments.projectionColumnsOf(CaseScopedTable.PLACEMENTS);

    private static final String FIND = "SELECT " + COLUMNS + " FROM placements WHERE id = ?";

    /** No key column changes, so the weaker lock: it still excludes every other writer of the row. */
    private static final String FIND_FOR_NO_KEY_UPDATE = FIND + " FOR NO KEY UPDATE";

    /** A page of a case's list; the index on {@code case_id} finds the case's rows. */
    private static final String LIST_BY_CASE = "SELECT " + COLUMNS + " FROM placements WHERE case_id = ?";

    /**
     * A page of a home's list, of the cases of one jurisdiction only: a placement of a case that moved to another
     * (decision 43) is not even read, so it never moves the cursor and no page comes back empty with a next cursor over
     * it (the caller's reads then decide which of the rest are shown). The index on
     * {@code (foster_home_id, created_at, id)} (V16) walks them in list order.
     */
    private static final String LIST_BY_HOME = """
            SELECT\s""" + COLUMNS + """

              FROM placements
             WHERE foster_home_id = ?
               AND EXISTS (SELECT 1 FROM case_assignments ca
                            WHERE ca.case_id = placements.case_id AND ca.jurisdiction = ?)""";
    private static final String WITH_STATUS = " AND status = ?";

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
            """ + CaseAssignments.copyFromProjection(CaseScopedTable.PLACEMENTS) + """

             WHERE id = ? AND row_version = ?
            RETURNING\s""" + COLUMNS;

    /** A placement may only name a home of its own jurisdiction; any other is as absent as one that does not exist. */
    private static final String FOSTER_HOME_EXISTS =
            "SELECT EXISTS (SELECT 1 FROM foster_homes WHERE id = ? AND jurisdiction = ?)";

    private final JdbcTemplate jdbc;
    private final CaseAssignments assignments;

    Placements(JdbcTemplate jdbc, CaseAssignments assignments) {
        this.jdbc = jdbc;
        this.assignments = assignments;
    }

    Optional<Placement> find(UUID id) {
        return one(FIND, id);
    }

    /**
     * Inside the transaction: holds the case {@code FOR SHARE} first (the lock order), then locks the row; the row
     * with the trace of what it held.
     */
    Optional<Locked<Placement>> findForNoKeyUpdate(UUID id) {
        String heldTrace = assignments.holdCaseOf(CaseScopedTable.PLACEMENTS, id);
        return one(FIND_FOR_NO_KEY_UPDATE, id).map(row -> new Locked<>(row, heldTrace));
    }

    List<Placement> listByCase(UUID caseId, ListPage.Query query) {
        return query.read(jdbc, LIST_BY_CASE, Placements::map, caseId);
    }

    /**
     * @param jurisdiction only placements of cases of this jurisdiction (the caller's)
     * @param status       only placements of this status; null for all
     */
    List<Placement> listByHome(UUID fosterHomeId, String jurisdiction, PlacementStatus status, ListPage.Query query) {
        return status == null ? query.read(jdbc, LIST_BY_HOME, Placements::map, fosterHomeId, jurisdiction)
                : query.read(jdbc, LIST_BY_HOME + WITH_STATUS, Placements::map, fosterHomeId, jurisdiction,
                        status.name());
    }

    boolean fosterHomeExists(UUID fosterHomeId, String jurisdiction) {
        return Boolean.TRUE.equals(jdbc.queryForObject(FOSTER_HOME_EXISTS, Boolean.class, fosterHomeId, jurisdiction));
    }

    Placement insert(UUID id, UUID caseId, CreatePlacementRequest request, ProjectedAssignment assignment, String createdBy) {
        try {
            return jdbc.queryForObject(INSERT, Placements::map, id, caseId, request.fosterHomeId(), request.startDate(),
                    request.endDate(), assignment.pair().assignedWorkerSub(), assignment.pair().supervisorSub(),
                    assignment.revision(), createdBy);
        } catch (DataAccessException e) {
            throw HomeGateRefusals.translate(e); // a home whose licence refuses new placements
        }
    }

    /** Writes the changed fields over the locked row at its locked version. */
    Placement update(Placement changed) {
        try {
            return jdbc.query(UPDATE, Placements::map, changed.status().name(), changed.fosterHomeId(),
                            changed.startDate(), changed.endDate(), changed.id(), changed.rowVersion())
                    .stream().findFirst()
                    .orElseThrow(() -> new IllegalStateException("placement " + changed.id() + " changed under its row lock"));
        } catch (DataAccessException e) {
            throw HomeGateRefusals.translate(e); // the home is full or not licensed for it
        }
    }

    private Optional<Placement> one(String sql, UUID id) {
        return jdbc.query(sql, Placements::map, id).stream().findFirst();
    }

    private static Placement map(ResultSet rs, int row) throws SQLException {
        return new Placement(
                rs.getObject("id", UUID.class),
                rs.getObject("case_id", UUID.class),
                PlacementStatus.valueOf(rs.getString("status")),
                rs.getObject("foster_home_id", UUID.class),
                rs.getObject("start_date", LocalDate.class),
                rs.getObject("end_date", LocalDate.class),
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
