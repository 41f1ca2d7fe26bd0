package org.caseassignments.backfill.rebuild;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.springframework.jdbc.core.JdbcTemplate;

/** What the rebuild's tests hold, and wait for, in the database: a table held by a transaction, the projection's lock. */
final class HeldLocks {

    private HeldLocks() {
    }

    /** {@code table} held in {@code ACCESS SHARE} mode by an open transaction of {@code connection}. */
    static void share(Connection connection, String table) throws Exception {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LOCK TABLE " + table + " IN ACCESS SHARE MODE");
        }
    }

    /**
     * The backend of the one session that holds ({@code granted}) or waits for the projection's {@code ACCESS
     * EXCLUSIVE} lock; with {@code waitingUnderIt}, one that holds it and waits for another lock meanwhile.
     */
    static int projectionLock(JdbcTemplate jdbc, boolean granted, boolean waitingUnderIt) {
        return Awaitility.await("the projection's lock " + (granted ? "granted" : "waited for")
                        + (waitingUnderIt ? ", and a wait under it" : "")).atMost(Duration.ofSeconds(240))
                .pollInterval(Duration.ofMillis(5)).until(() -> jdbc.queryForList("""
                        SELECT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                          JOIN pg_stat_activity a ON a.pid = l.pid
                         WHERE c.relname = 'case_assignments' AND l.mode = 'AccessExclusiveLock' AND l.granted = ?
                           AND (NOT ? OR a.wait_event_type = 'Lock')
                        """, Integer.class, granted, waitingUnderIt), pids -> pids.size() == 1).get(0);
    }
}
