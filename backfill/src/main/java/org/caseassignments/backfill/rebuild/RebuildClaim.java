package org.caseassignments.backfill.rebuild;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.caseassignments.store.AdvisoryLocks;
import org.caseassignments.store.rebuild.ShadowTables;
import org.springframework.jdbc.UncategorizedSQLException;

/**
 * One rebuild (or undo, or drop of the previous table) at a time: a session-level advisory lock on the shadow's
 * name, held on a connection of its own from the start of the run to its end, so it outlives every transaction of
 * the run and goes with its session (the process ends, or the database ends the session). A second run does not
 * wait for it: it refuses at once, naming the holder (the process id and host it put in its session's
 * {@code application_name}, and its session's start), before it reads or drops anything. The session keeps TCP
 * keepalives on, so the claim of a run whose machine is gone or cut off is released within about two minutes; that
 * of a frozen process (SIGSTOP, a paused VM whose host still answers) is held until the process ends or an operator
 * ends its session. Decision 46.
 */
final class RebuildClaim implements AutoCloseable {

    private static final String KEY = AdvisoryLocks.REBUILD.on("'" + ShadowTables.SHADOW + "'");

    private static final String KEEPALIVES = """
            SET tcp_keepalives_idle = 60; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 6
            """;

    private static final String RELEASE = """
            SELECT pg_advisory_unlock(%s); RESET application_name;
            RESET tcp_keepalives_idle; RESET tcp_keepalives_interval; RESET tcp_keepalives_count
            """.formatted(KEY);

    private static final String TRY = "SELECT pg_try_advisory_lock(" + KEY + ")";

    /** The claim's row of {@code pg_locks l}, granted: the two-key advisory lock {@link #KEY} takes. */
    private static final String GRANTED_CLAIM = """
            l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = %d::oid AND l.objid = %s::oid"""
            .formatted(AdvisoryLocks.REBUILD.namespace(), AdvisoryLocks.keyOf("'" + ShadowTables.SHADOW + "'"));

    /**
     * The session holding the claim, as the second run names it; a session of another role shows its pid and
     * {@code application_name} but not its address or start (without {@code pg_read_all_stats}).
     */
    private static final String HOLDER = """
            SELECT a.pid, a.application_name,
                   CASE WHEN a.backend_start IS NULL THEN 'hidden (another role)'
                        ELSE coalesce(a.client_hostname, host(a.client_addr), 'a local socket') END AS client,
                   coalesce(a.backend_start::text, 'hidden (another role)') AS since
              FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE %s
            """.formatted(GRANTED_CLAIM);

    /** Whether this session still holds the claim: a session the server ended took the claim with it. */
    private static final String STILL_HELD = """
            SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE %s AND l.pid = pg_backend_pid())
            """.formatted(GRANTED_CLAIM);

    /** Thrown when the claim went with its session: another run may hold it by now. */
    static final class Lost extends IllegalStateException {
        Lost(String why) {
            super("the rebuild's claim was lost with its session (" + why + "): another rebuild, undo or "
                    + "--drop-previous may hold it by now, so this run does nothing more; see what is live and run again");
        }
    }

    /** Thrown when another run holds the claim: its message names that run. */
    static final class Held extends RuntimeException {
        Held(String holder) {
            super(holder, null, false, false);
        }
    }

    private final Connection connection;

    private RebuildClaim(Connection connection) {
        this.connection = connection;
    }

    /** Takes the claim at once, or throws {@link Held} naming the run that has it. */
    static RebuildClaim take(DataSource dataSource) {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(true);
            try (PreparedStatement name = connection.prepareStatement("SELECT set_config('application_name', ?, false)");
                 Statement statement = connection.createStatement()) {
                name.setString(1, whoAmI());
                name.execute();
                statement.execute(KEEPALIVES);
                try (ResultSet taken = statement.executeQuery(TRY)) {
                    taken.next();
                    if (!taken.getBoolean(1)) {
                        throw new Held(holder(statement));
                    }
                }
            }
            return new RebuildClaim(connection);
        } catch (SQLException e) {
            close(connection);
            throw new UncategorizedSQLException("take the rebuild's claim", null, e);
        } catch (RuntimeException e) {
            close(connection);
            throw e;
        }
    }

    private static String holder(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery(HOLDER)) {
            if (!rs.next()) {
                return "a session that has just let go of it";
            }
            return "\"" + rs.getString("application_name") + "\" (database session pid " + rs.getInt("pid") + " from "
                    + rs.getString("client") + ", connected at " + rs.getString("since") + ")";
        }
    }

    /** What the holder's session says of it: {@code backfill rebuild pid N on HOST}, at most 63 bytes. */
    static String whoAmI() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "an unknown host";
        }
        String name = "backfill rebuild pid " + ProcessHandle.current().pid() + " on " + host;
        return name.length() > 63 ? name.substring(0, 63) : name;
    }

    /** Throws {@link Lost} unless this run's session still holds the claim: asked before a retry on a new session. */
    void requireHeld() {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(STILL_HELD)) {
            if (!rs.next() || !rs.getBoolean(1)) {
                throw new Lost("its session no longer holds the lock");
            }
        } catch (SQLException e) {
            throw new Lost("SQLSTATE " + e.getSQLState() + ": " + e.getMessage());
        }
    }

    /** Lets go of the claim and gives the connection back as the pool lent it. */
    @Override
    public void close() {
        close(connection);
    }

    private static void close(Connection connection) {
        if (connection == null) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(RELEASE);
        } catch (SQLException e) {
            // The session is gone already, and the claim with it; the pool drops the broken connection.
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // As above.
        }
    }
}
