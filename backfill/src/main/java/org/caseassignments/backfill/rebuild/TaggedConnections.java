package org.caseassignments.backfill.rebuild;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The job's pool with every connection it lends named after the run ({@code application_name}, the tag its claim
 * shows: {@code backfill rebuild pid N on HOST}), so ending a run's sessions by that name ends all of them, the claim's
 * and those of its shadow writes and swap alike. Decision 46.
 */
final class TaggedConnections extends DelegatingDataSource {

    private static final String NAME = "SELECT set_config('application_name', ?, false)";

    private final String tag;

    TaggedConnections(DataSource pool, String tag) {
        super(pool);
        this.tag = tag;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = super.getConnection();
        try (PreparedStatement name = connection.prepareStatement(NAME)) {
            name.setString(1, tag);
            name.execute();
            return connection;
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }
}
