package org.caseassignments.backfill.rebuild;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * What an operator's SQL (or another run) can do to a rebuild's tables between its steps: put another table in the
 * projection's place, as a restore by hand would — the projection renamed aside, a copy of it, rows and all, made the
 * projection.
 */
final class ProjectionByHand {

    /** Where the projection the copy replaced is kept. */
    static final String ASIDE = "case_assignments_by_hand";

    private static final String REPLACE = """
            ALTER TABLE case_assignments RENAME TO case_assignments_by_hand;
            ALTER INDEX case_assignments_pkey RENAME TO case_assignments_by_hand_pkey;
            CREATE TABLE case_assignments (LIKE case_assignments_by_hand INCLUDING ALL);
            INSERT INTO case_assignments SELECT * FROM case_assignments_by_hand
            """;

    private ProjectionByHand() {
    }

    /**
     * In {@code connection}'s transaction (one it holds already, or a new one), committed: the projection replaced by a
     * copy of itself; the copy's {@code pg_class} oid.
     */
    static long replace(Connection connection) throws Exception {
        return replace(connection, "SELECT 1");
    }

    /** As {@link #replace(Connection)}, with {@code thenSql} run on the copy in the same transaction. */
    static long replace(Connection connection, String thenSql) throws Exception {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute(REPLACE);
            statement.execute(thenSql);
            connection.commit();
            try (ResultSet rs = statement.executeQuery("SELECT 'case_assignments'::regclass::oid::bigint")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
