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
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The foster home table's statements. {@code (jurisdiction, upper(btrim(license_number) COLLATE "C"))} is the only unique key
 * either write can violate (the number compared without letter case or surrounding spaces, kept as written) (ids are generated and never updated), so a unique violation means exactly a
 * duplicate license number within the caller's own jurisdiction (a home is only ever written with its
 * caller's); it is answered as such, with the number the caller sent and nothing of the row holding it,
 * never with the constraint or the SQL. A home's own update locks the home alone ({@code LockOrder}, store, last step).
 */
@Repository
class FosterHomes {

    /**
     * The row and its ACTIVE placements. After an UPDATE the count is the statement's view, which began after the
     * home's row lock was taken, and every activation into the home needs that lock: it is the count the write left.
     */
    private static final String ACTIVE_PLACEMENTS =
            "(SELECT count(*) FROM placements p WHERE p.foster_home_id = foster_homes.id AND p.status = 'ACTIVE')";

    private static final String COLUMNS = """
            id, name, license_number, license_status, admin_unit, capacity, row_version, created_at, updated_at,
            jurisdiction, """ + ACTIVE_PLACEMENTS + " AS active_placements";

    private static final String FIND = "SELECT " + COLUMNS + " FROM foster_homes WHERE id = ?";

    /**
     * A page of the roster: the homes of one jurisdiction only, so another's never enter a page, nor move its cursor
     * (decision 45); the filters follow, each only when given. The index on {@code (jurisdiction, created_at, id)}
     * (V16) walks them in list order; a home's ACTIVE placements are counted on the partial index of V6.
     */
    private static final String LIST = "SELECT " + COLUMNS + " FROM foster_homes WHERE jurisdiction = ?";
    private static final String WITH_LICENSE_STATUS = " AND license_status = ?";
    private static final String IN_ADMIN_UNIT = " AND admin_unit = ?";
    /** A home without a capacity has no limit, so room for any number. */
    private static final String WITH_ROOM = " AND (capacity IS NULL OR capacity - " + ACTIVE_PLACEMENTS + " >= ?)";

    /**
     * The weaker lock, as for every entity. An UPDATE that changes {@code license_number} keeps it: the number's
     * uniqueness is an index on an expression, which no foreign key can use, so the change is no key change.
     * It reads nothing: a statement that waits for the lock keeps the snapshot it took before, in which an activation
     * that held the lock (the gate locks the home without writing it) is not committed yet, so the row and its count
     * are read by {@link #FIND} after it, in a snapshot that sees every activation the lock waited for.
     */
    private static final String LOCK_FOR_NO_KEY_UPDATE = "SELECT id FROM foster_homes WHERE id = ? FOR NO KEY UPDATE";

    private static final String INSERT = """
            INSERT INTO foster_homes (id, name, license_number, license_status, admin_unit, capacity, jurisdiction)
            VALUES (?, ?, ?, 'PENDING', ?, ?, ?)
            RETURNING\s""" + COLUMNS;

    /**
     * Every column but {@code license_number}. With a BEFORE UPDATE row trigger on the table (the capacity gate),
     * PostgreSQL picks the tuple lock from the columns SET names, not from whether their values change: naming the
     * key column would take the key-strength lock, which a placement insert's foreign-key check ({@code FOR KEY
     * SHARE}) waits for, on every rename (ADR-060 D7). So the key column is named only by {@link #UPDATE_LICENSE_NUMBER}.
     * The database moves {@code row_version} on every UPDATE (V15), so no statement names it.
     */
    private static final String UPDATE = """
            UPDATE foster_homes
               SET name = ?, license_status = ?, admin_unit = ?, capacity = ?,
                   updated_at = now()
             WHERE id = ? AND row_version = ?
            RETURNING\s""" + COLUMNS;

    /** A change of the licence number: the one update that takes the key-strength lock, as D7 allows. */
    private static final String UPDATE_LICENSE_NUMBER = """
            UPDATE foster_homes
               SET name = ?, license_status = ?, admin_unit = ?, capacity = ?, license_number = ?,
                   updated_at = now()
             WHERE id = ? AND row_version = ?
            RETURNING\s""" + COLUMNS;

    private final JdbcTemplate jdbc;

    FosterHomes(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
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
        if (jdbc.queryForList(LOCK_FOR_NO_KEY_UPDATE, UUID.class, id).isEmpty()) {
            return Optional.empty();
        }
        return find(id);
    }

    /** @param jurisdiction the creator's, which the home belongs to from now on */
    FosterHome insert(UUID id, CreateFosterHomeRequest request, String jurisdiction) {
        try {
            return jdbc.queryForObject(INSERT, FosterHomes::map, id, request.name(), request.licenseNumber(),
                    request.adminUnit(), request.capacity(), jurisdiction);
        } catch (DuplicateKeyException e) {
            throw duplicate(request.licenseNumber());
        }
    }

    /** Writes the changed fields over the locked row at its locked version; the licence number only when it changes. */
    FosterHome update(FosterHome locked, FosterHome changed) {
        boolean renumbers = !changed.licenseNumber().equals(locked.licenseNumber());
        List<Object> values = new ArrayList<>(List.of(changed.name(), changed.licenseStatus().name(), changed.adminUnit()));
        values.add(changed.capacity()); // may be null: no limit
        if (renumbers) {
            values.add(changed.licenseNumber());
        }
        values.addAll(List.of(changed.id(), changed.rowVersion()));
        try {
            return jdbc.query(renumbers ? UPDATE_LICENSE_NUMBER : UPDATE, FosterHomes::map, values.toArray())
                    .stream().findFirst()
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
