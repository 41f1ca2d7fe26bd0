package org.caseassignments.testkit;

import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A freshly created and migrated database of its own. Hold one in a {@code static final} field of
 * a test class, so each class gets its own and cannot see another's rows:
 *
 * <pre>{@code
 * static final TestDatabase DB = TestDatabase.migrated();
 * @DynamicPropertySource static void db(DynamicPropertyRegistry r) { DB.register(r); }
 * }</pre>
 */
public final class TestDatabase {

    private final String name;
    private final String url;
    private final String username;
    private final String password;
    private volatile HikariDataSource dataSource;

    private TestDatabase(String name, String url, String username, String password) {
        this.name = name;
        this.url = url;
        this.username = username;
        this.password = password;
    }

    /** A new empty database with the project's migrations applied. */
    public static TestDatabase migrated() {
        TestDatabase db = empty();
        db.migrate();
        return db;
    }

    /**
     * A new migrated database on an embedded server of its own started with {@code settings}: for a test of what
     * only a server setting makes reachable (a NOTIFY queue small enough to fill). Costs a server start.
     */
    public static TestDatabase migratedOnAServerWith(Map<String, String> settings) {
        TestDatabase db = on(PostgresServer.embeddedWith(settings));
        db.migrate();
        return db;
    }

    /** A new empty database, migrations not applied (for tests of the migrations themselves). */
    public static TestDatabase empty() {
        return on(PostgresServer.get());
    }

    private static TestDatabase on(PostgresServer server) {
        String name = "test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        server.createDatabase(name);
        return new TestDatabase(name, server.urlOf(name), server.username(), server.password());
    }

    /** Applies the migrations from the store module (on the caller's classpath); returns how many were applied. */
    public int migrate() {
        return Flyway.configure()
                .dataSource(url, username, password)
                .locations("classpath:db/migration")
                .load()
                .migrate()
                .migrationsExecuted;
    }

    public String name() {
        return name;
    }

    public String jdbcUrl() {
        return url;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** A small pool on this database, shared by the test class; it closes connections idle for 10 s. */
    public DataSource dataSource() {
        HikariDataSource ds = dataSource;
        if (ds == null) {
            synchronized (this) {
                if (dataSource == null) {
                    HikariConfig config = new HikariConfig();
                    config.setJdbcUrl(url);
                    config.setUsername(username);
                    config.setPassword(password);
                    config.setMaximumPoolSize(8);
                    // Each test class has a database and a pool of its own, kept for the JVM's life: a pool that keeps
                    // no idle connections gives its connections back to the shared server once its class is done,
                    // instead of holding eight per class until the suite runs the server out of connections.
                    config.setMinimumIdle(0);
                    config.setIdleTimeout(10_000);
                    config.setPoolName("test-" + name);
                    dataSource = new HikariDataSource(config);
                }
                ds = dataSource;
            }
        }
        return ds;
    }

    public JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource());
    }

    /** Spring Boot datasource properties pointing at this database. */
    public Map<String, String> springProperties() {
        return Map.of(
                "spring.datasource.url", url,
                "spring.datasource.username", username,
                "spring.datasource.password", password);
    }

    public void register(DynamicPropertyRegistry registry) {
        springProperties().forEach((key, value) -> registry.add(key, () -> value));
    }
}
