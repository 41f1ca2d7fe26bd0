package org.caseassignments.store;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What one follow of the projection (or one repair) did to the case-scoped rows: how many of each table it brought
 * to their case's triple, and how many of those were healed (at their case's revision, with another pair).
 *
 * @param placements     placement rows updated
 * @param kinshipOptions kinship option rows updated
 * @param healed         of both, the rows updated at an equal revision
 */
public record FollowedRows(int placements, int kinshipOptions, int healed) {

    static final FollowedRows NONE = new FollowedRows(0, 0, 0);

    /** Reads the follow's counts, one row per table that changed ({@code entity}, {@code updated}, {@code healed}). */
    static FollowedRows read(ResultSet rs) throws SQLException {
        int placements = 0;
        int kinshipOptions = 0;
        int healed = 0;
        while (rs.next()) {
            int updated = rs.getInt("updated");
            healed += rs.getInt("healed");
            switch (LockOrder.CaseScopedTable.named(rs.getString("entity"))) {
                case PLACEMENTS -> placements = updated;
                case KINSHIP_OPTIONS -> kinshipOptions = updated;
            }
        }
        return new FollowedRows(placements, kinshipOptions, healed);
    }
}
