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
import org.caseassignments.api.assignment.HeldAssignment;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.write.HomeGateRefusals;
import org.caseassignments.api.write.Locked;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.hold.HeldCase;
import org.caseassignments.store.placement.PlacementRows;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The placement table's reads, and its locks and writes through {@link PlacementRows} (store): a write locks its row
 * after its case's ({@code LockOrder}, store).
 */
@Repository
class Placements {

    /** A page of a case's list; the index on {@code case_id} finds the case's rows. */
    private static final String LIST_BY_CASE = "SELECT " + PlacementRows.COLUMNS + " FROM placements WHERE case_id = ?";

    /**
     * A page of a home's list, of the cases of one jurisdiction only: a placement of a case that moved to another
     * (decision 43) is not even read, so it never moves the cursor and no page comes back empty with a next cursor over
     * it (the caller's reads then decide which of the rest are shown). The index on
     * {@code (foster_home_id, created_at, id)} (V16) walks them in list order.
     */
    private static final String LIST_BY_HOME = """
            SELECT\s""" + PlacementRows.COLUMNS + """

              FROM placements
             WHERE foster_home_id = ?
               AND EXISTS (SELECT 1 FROM case_assignments ca
                            WHERE ca.case_id = placements.case_id AND ca.jurisdiction = ?)""";
    private static final String WITH_STATUS = " AND status = ?";

    /** A placement may only name a home of its own jurisdiction; any other is as absent as one that does not exist. */
    private static final String FOSTER_HOME_EXISTS =
            "SELECT EXISTS (SELECT 1 FROM foster_homes WHERE id = ? AND jurisdiction = ?)";

    private final JdbcTemplate jdbc;
    private final PlacementRows rows;
    private final CaseAssignments assignments;

    Placements(JdbcTemplate jdbc, CaseAssignments assignments) {
        this.jdbc = jdbc;
        this.rows = new PlacementRows(jdbc);
        this.assignments = assignments;
    }

    Optional<Placement> find(UUID id) {
        return jdbc.query(PlacementRows.FIND, Placements::map, id).stream().findFirst();
    }

    /**
     * Inside the transaction: holds the case {@code FOR SHARE} first (the lock order), then locks the row; the row
     * with the trace of what it held.
     */
    Optional<Locked<Placement>> findForNoKeyUpdate(UUID id) {
        HeldCase held = assignments.holdCaseOf(CaseScopedTable.PLACEMENTS, id);
        return rows.lockForNoKeyUpdate(held, Placements::map).map(row -> new Locked<>(row, held));
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

    /** A new placement in the case held, with the assignment read under the hold. */
    Placement insert(UUID id, HeldAssignment held, CreatePlacementRequest request, String createdBy) {
        ProjectedAssignment assignment = held.assignment();
        try {
            return rows.insert(held.hold(), id, request.fosterHomeId(), request.startDate(), request.endDate(),
                    assignment.pair().assignedWorkerSub(), assignment.pair().supervisorSub(), assignment.revision(),
                    createdBy, Placements::map);
        } catch (DataAccessException e) {
            throw HomeGateRefusals.translate(e); // a home whose licence refuses new placements
        }
    }

    /** Writes the changed fields over the locked row, whose case is {@code held}, at its locked version. */
    Placement update(HeldCase held, Placement changed) {
        try {
            return rows.update(held, changed.rowVersion(), changed.status().name(), changed.fosterHomeId(),
                            changed.startDate(), changed.endDate(), Placements::map)
                    .orElseThrow(() -> new IllegalStateException("placement " + changed.id() + " changed under its row lock"));
        } catch (DataAccessException e) {
            throw HomeGateRefusals.translate(e); // the home is full or not licensed for it
        }
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
