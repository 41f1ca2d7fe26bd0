package org.caseassignments.store;

import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.datasource.AbstractDriverBasedDataSource;

/**
 * The connection the schema's migrations run on, opened with the pool's connection properties. Given a user of their
 * own ({@code spring.flyway.user}: the schema's owner), the migrations get from Spring Boot a data source of the URL
 * and those credentials alone, which drops everything {@code spring.datasource.hikari.data-source-properties} sets
 * (TLS, {@code socketTimeout}, {@code tcpKeepAlive}, the server {@code options}: keepalives, the idle-in-transaction
 * limit). This gives them back to it, so a migration connects as every other session of the deployable does. Not the
 * pool's init SQL: migrations run as the schema's owner, without the API's {@code SET ROLE}. Two limits are lifted,
 * since a migration may rightly run for many minutes: the migration lock's transaction waits idle on one connection
 * while a migration runs on another, so {@code idle_in_transaction_session_timeout} is 0, and no statement of a
 * migration is cut off by {@code socketTimeout} (0). Decision 52.
 */
public final class MigrationConnections {

    private MigrationConnections() {
    }

    /**
     * {@code migration}, when it is a data source built from a URL and credentials, opens its connections with the
     * data-source properties of {@code pool} (a Hikari pool) under its own; any other is left as it is (the pool
     * itself already has them).
     */
    public static void carryThePoolsProperties(DataSource migration, DataSource pool) {
        if (migration instanceof AbstractDriverBasedDataSource driver && migration != pool
                && pool instanceof HikariDataSource hikari) {
            Properties properties = new Properties();
            properties.putAll(hikari.getDataSourceProperties());
            if (driver.getConnectionProperties() != null) {
                properties.putAll(driver.getConnectionProperties());
            }
            properties.setProperty("socketTimeout", "0");
            String options = properties.getProperty("options");
            properties.setProperty("options", (options == null || options.isBlank() ? "" : options + " ")
                    + "-c idle_in_transaction_session_timeout=0");
            driver.setConnectionProperties(properties);
        }
    }
}
