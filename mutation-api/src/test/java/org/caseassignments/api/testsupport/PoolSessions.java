package org.caseassignments.api.testsupport;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

/** The application's own connection pool, as a test that makes the database refuse the application handles it. */
public final class PoolSessions {

    private PoolSessions() {
    }

    /**
     * The pool's sessions ended until every one reads {@code setting} as {@code value} (after an {@code ALTER
     * DATABASE … SET}): a session the pool was already opening when the database's settings changed started with the
     * old value, and is replaced too.
     */
    public static void reading(DataSource pool, String setting, String value) {
        HikariDataSource hikari = (HikariDataSource) pool;
        HikariPoolMXBean started = hikari.getHikariPoolMXBean();
        if (started != null) { // null until the pool's first borrow: then no session is open yet
            started.softEvictConnections();
        }
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> everySessionReads(hikari, setting, value));
    }

    /** Every connection of the pool, borrowed until {@link Held#close}: the application's next borrow times out. */
    public static Held holdEvery(DataSource pool) throws SQLException {
        Held held = new Held();
        try {
            for (int i = 0; i < ((HikariDataSource) pool).getMaximumPoolSize(); i++) {
                held.connections.add(pool.getConnection());
            }
        } catch (SQLException | RuntimeException e) {
            held.close();
            throw e;
        }
        return held;
    }

    /** Connections borrowed from the pool, given back on {@link #close}. */
    public static final class Held implements AutoCloseable {

        private final List<Connection> connections = new ArrayList<>();

        @Override
        public void close() throws SQLException {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    /** Borrows every connection of the pool at once; evicts each whose session reads another value. */
    private static boolean everySessionReads(HikariDataSource hikari, String setting, String value)
            throws SQLException {
        List<Connection> borrowed = new ArrayList<>();
        List<Connection> stale = new ArrayList<>();
        try {
            while (borrowed.size() + stale.size() < hikari.getMaximumPoolSize()) {
                Connection connection = hikari.getConnection();
                borrowed.add(connection);
                try (Statement statement = connection.createStatement();
                     ResultSet shown = statement.executeQuery("SELECT current_setting('" + setting + "')")) {
                    shown.next();
                    if (!value.equals(shown.getString(1))) {
                        borrowed.remove(connection);
                        stale.add(connection);
                    }
                }
            }
        } finally {
            stale.forEach(hikari::evictConnection);
            for (Connection connection : borrowed) {
                connection.close();
            }
        }
        return stale.isEmpty();
    }
}
