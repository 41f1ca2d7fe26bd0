package org.caseassignments.store.fosterhome;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * The foster home table's locks and writes, the last step of the lock order: a home's own update locks the home
 * alone and only reads placements. The insert, the lock of the update and its two texts (the licence number named
 * only when it changes, decision 43). Each write returns the row as {@link #COLUMNS} reads it, mapped by the caller;
 * its refusals (a duplicate licence number, the occupancy gate's) are the caller's to translate.
 */
public final class FosterHomeRows {

    /**
     * The home's ACTIVE placements. After an UPDATE the count is the statement's view, which began after the
     * home's row lock was taken, and every activation into the home needs that lock: it is the count the write left.
     */
    public static final String ACTIVE_PLACEMENTS =
            "(SELECT count(*) FROM placements p WHERE p.foster_home_id = foster_homes.id AND p.status = 'ACTIVE')";

    /** The row and its ACTIVE placements. */
    public static final String COLUMNS = """
            id, name, license_number, license_status, admin_unit, capacity, row_version, created_at, updated_at,
            jurisdiction, """ + ACTIVE_PLACEMENTS + " AS active_placements";

    /**
     * The weaker lock, as for every entity. An UPDATE that changes {@code license_number} keeps it: the number's
     * uniqueness is an index on an expression, which no foreign key can use, so the change is no key change.
     * It reads nothing: a statement that waits for the lock keeps the snapshot it took before, in which an activation
     * that held the lock (the gate locks the home without writing it) is not committed yet, so the row and its count
     * are read after it, in a new statement, in a snapshot that sees every activation the lock waited for.
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

    /**
     * What an update writes over the locked row, at the row's locked version.
     *
     * @param capacity may be null: no limit
     */
    public record Change(UUID id, long rowVersion, String name, String licenseStatus, String adminUnit, Integer capacity,
                         String licenseNumber) {
    }

    private final JdbcTemplate jdbc;

    public FosterHomeRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inside the transaction (READ COMMITTED): locks the row until commit and reads nothing of it; false when there
     * is none. The caller reads the row and its count in a new statement.
     */
    public boolean lockForNoKeyUpdate(UUID id) {
        return !jdbc.queryForList(LOCK_FOR_NO_KEY_UPDATE, UUID.class, id).isEmpty();
    }

    /** A new PENDING home of {@code jurisdiction}. */
    public <T> T insert(UUID id, String name, String licenseNumber, String adminUnit, Integer capacity,
                        String jurisdiction, RowMapper<T> rows) {
        return jdbc.queryForObject(INSERT, rows, id, name, licenseNumber, adminUnit, capacity, jurisdiction);
    }

    /**
     * Writes {@code changed} over the locked row at its locked version; the licence number only when it differs from
     * {@code lockedLicenseNumber}, the locked row's. Empty when no row of that version is left.
     */
    public <T> Optional<T> update(String lockedLicenseNumber, Change changed, RowMapper<T> rows) {
        boolean renumbers = !changed.licenseNumber().equals(lockedLicenseNumber);
        List<Object> values = new ArrayList<>(List.of(changed.name(), changed.licenseStatus(), changed.adminUnit()));
        values.add(changed.capacity()); // may be null: no limit
        if (renumbers) {
            values.add(changed.licenseNumber());
        }
        values.addAll(List.of(changed.id(), changed.rowVersion()));
        return jdbc.query(renumbers ? UPDATE_LICENSE_NUMBER : UPDATE, rows, values.toArray()).stream().findFirst();
    }
}
