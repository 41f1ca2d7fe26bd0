package org.caseassignments.api.assignment;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.stereotype.Component;

/**
 * The listener's connection, opened with the pool's settings but outside it, so that listening never takes one of
 * the pool's: the pool's URL, credentials and data-source properties (TLS, timeouts, application name, everything
 * {@code spring.datasource.hikari.data-source-properties} sets: TLS, keepalives, server options) and its init SQL.
 * Its socket timeout is always {@code api.assignment.listener-timeout}, whatever the pool's (which lets a long
 * statement run), so the probe of a connection that went silent fails within it; a connect and login timeout of the
 * same length is added where the pool's settings name none. A data source that is not Hikari's lends one of its own
 * connections.
 */
@Component
class ListenerConnections implements ProjectionListener.Connections {

    private final DataSource dataSource;
    private final String timeoutSeconds;

    ListenerConnections(DataSource dataSource, AssignmentProperties properties) {
        this.dataSource = dataSource;
        this.timeoutSeconds = String.valueOf(Math.max(1, properties.listenerTimeout().toSeconds()));
    }

    @Override
    public Connection open() throws SQLException {
        if (!(dataSource instanceof HikariDataSource hikari) || hikari.getJdbcUrl() == null) {
            return dataSource.getConnection();
        }
        Connection connection = DriverManager.getConnection(hikari.getJdbcUrl(), settings(hikari));
        if (hikari.getConnectionInitSql() != null) {
            try (Statement init = connection.createStatement()) {
                init.execute(hikari.getConnectionInitSql());
            }
        }
        return connection;
    }

    /** The pool's data-source properties, its credentials, and the timeouts it leaves unset. */
    Properties settings(HikariDataSource hikari) {
        Properties settings = new Properties();
        settings.putAll(hikari.getDataSourceProperties());
        if (hikari.getUsername() != null) {
            settings.setProperty("user", hikari.getUsername());
        }
        if (hikari.getPassword() != null) {
            settings.setProperty("password", hikari.getPassword());
        }
        // its own, whatever the pool's (which may let a long statement run): the probe's answer is due at once
        settings.setProperty("socketTimeout", timeoutSeconds);
        settings.putIfAbsent("connectTimeout", timeoutSeconds);
        settings.putIfAbsent("loginTimeout", timeoutSeconds);
        settings.putIfAbsent("ApplicationName", "case-assignments projection listener");
        return settings;
    }
}
