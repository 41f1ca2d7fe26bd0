package org.caseassignments.api.fosterhome;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.write.HomeGateRefusals;
import org.caseassignments.store.fosterhome.FosterHomeRows;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The foster home table's reads, and its locks and writes through {@link FosterHomeRows} (store). {@code (jurisdiction, upper(btrim(license_number) COLLATE "C"))} is the only unique key
 * either write can violate (the number compared without letter case or surrounding spaces, kept as written) (ids are generated and never updated), so a unique violation means exactly a
 * duplicate license number within the caller's own jurisdiction (a home is only ever written with its
 * caller's); it is answered as such, with the number the caller sent and nothing of the row holding it,
 * never with the constraint or the SQL. A home's own update locks the home alone ({@code LockOrder}, store, last step).
 */
@Repository
class FosterHomes {

    private static final String FIND = "SELECT " + FosterHomeRows.COLUMNS + " FROM foster_homes WHERE id = ?";

    /**
     * A page of the roster: the homes of one jurisdiction only, so another's never enter a page, nor move its cursor
     * (decision 45); the filters follow, each only when given. The index on {@code (jurisdiction, created_at, id)}
     * (V16) walks them in list order; a home's ACTIVE placements are counted on the partial index of V6.
     */
    private static final String LIST = "SELECT " + FosterHomeRows.COLUMNS + " FROM foster_homes WHERE jurisdiction = ?";
    private static final String WITH_LICENSE_STATUS = " AND license_status = ?";
    private static final String IN_ADMIN_UNIT = " AND admin_unit = ?";
    /** A home without a capacity has no limit, so room for any number. */
    private static final String WITH_ROOM =
            " AND (capacity IS NULL OR capacity - " + FosterHomeRows.ACTIVE_PLACEMENTS + " >= ?)";

    private final JdbcTemplate jdbc;
    private final FosterHomeRows rows;

    FosterHomes(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.rows = new FosterHomeRows(jdbc);
    }

    Optional<FosterHome> find(UUID id) {
        return jdbc.query(FIND, FosterHomes::map, id).stream().findFirst();
    }

    /** The page {@code query} asks for of the jurisdiction's homes that pass {@code filter}. */
    List<FosterHome> list(String jurisdiction, RosterFilter filter, ListPage.Query query) {
        StringBuilder sql = new StringBuilder(LIST);
        List<Object> args = new ArrayList<>(List.of(jurisdiction));
        if (filter.licenseStatus() != null) {
            sql.append(WITH_LICENSE_STATUS);
            args.add(filter.licenseStatus().name());
        }
        if (filter.adminUnit() != null) {
            sql.append(IN_ADMIN_UNIT);
            args.add(filter.adminUnit());
        }
        if (filter.minRoom() != null) {
            sql.append(WITH_ROOM);
            args.add(filter.minRoom());
        }
        return query.read(jdbc, sql.toString(), FosterHomes::map, args.toArray());
    }

    /** Inside the transaction (READ COMMITTED): locks the row, then reads it and its count in a new statement. */
    Optional<FosterHome> findForNoKeyUpdate(UUID id) {
        if (!rows.lockForNoKeyUpdate(id)) {
            return Optional.empty();
        }
        return find(id);
    }

    /** @param jurisdiction the creator's, which the home belongs to from now on */
    FosterHome insert(UUID id, CreateFosterHomeRequest request, String jurisdiction) {
        try {
            return rows.insert(id, request.name(), request.licenseNumber(), request.adminUnit(), request.capacity(),
                    jurisdiction, FosterHomes::map);
        } catch (DuplicateKeyException e) {
            throw duplicate(request.licenseNumber());
        }
    }

    /** Writes the changed fields over the locked row at its locked version; the licence number only when it changes. */
    FosterHome update(FosterHome locked, FosterHome changed) {
        try {
            return rows.update(locked.licenseNumber(), new FosterHomeRows.Change(changed.id(), changed.rowVersion(),
                            changed.name(), changed.licenseStatus().name(), changed.adminUnit(), changed.capacity(),
                            changed.licenseNumber()), FosterHomes::map)
                    .orElseThrow(() -> new IllegalStateException("foster home " + changed.id() + " changed under its row lock"));
        } catch (DuplicateKeyException e) {
            throw duplicate(changed.licenseNumber());
        } catch (DataAccessException e) {
            throw HomeGateRefusals.translate(e); // a capacity below the ACTIVE placements
        }
    }

    private static ApiProblem duplicate(String licenseNumber) {
        return new ApiProblem(ProblemCode.DUPLICATE_LICENSE_NUMBER, "Another foster home of your jurisdiction already "
                + "holds license number " + licenseNumber + "; license numbers are unique within a jurisdiction, "
                + "whatever their letter case and surrounding spaces");
    }

    private static FosterHome map(ResultSet rs, int row) throws SQLException {
        return new FosterHome(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                rs.getString("license_number"),
                LicenseStatus.valueOf(rs.getString("license_status")),
                rs.getString("admin_unit"),
                rs.getObject("capacity", Integer.class),
                rs.getLong("row_version"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                rs.getObject("updated_at", OffsetDateTime.class).toInstant(),
                rs.getString("jurisdiction"),
                rs.getInt("active_placements"));
    }
}
