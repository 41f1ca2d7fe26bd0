package org.caseassignments.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The projector's side of the cases' queue ({@link LockOrder}, first step): its upsert of the live projection is
 * tried first with a short {@code lock_timeout} inside a savepoint, which costs no round trip of its own (the
 * statements ride on the planner settings the writer sends anyway). Only when that try waits longer than
 * {@link #TRY_FOR} for a row lock does the writer roll back to the savepoint, find the cases it cannot lock at
 * once, queue exclusively for those, in key order, holding no case row while it waits, and upsert again with no
 * timeout. A backlog batch of many thousands of cases therefore takes no advisory lock unless API writes hold
 * some of its cases; then it takes one per contended case, up to a cap (each is an entry of PostgreSQL's shared
 * lock table). Why: decisions 33 and 48.
 */
final class CaseQueue {

    /**
     * How long the first try waits for a row lock before the writer queues: longer than an API write holds a
     * case (a few milliseconds), so an occasional write costs no second try, and short against the latency of
     * an event (the projector's commit interval is a second).
     */
    static final Duration TRY_FOR = Duration.ofMillis(50);

    private static final String SAVEPOINT = "case_queue_try";

    /** Sent after the planner setting, in its round trip: the setting outlives a rollback to the savepoint. */
    static final String TRY = "; SAVEPOINT " + SAVEPOINT + "; SET LOCAL lock_timeout = '" + TRY_FOR.toMillis() + "ms'";

    /** Sent before the planner setting, in its round trip: keeps what the upsert wrote and ends the short timeout. */
    static final String TRIED = "RELEASE SAVEPOINT " + SAVEPOINT + "; SET LOCAL lock_timeout TO DEFAULT; ";

    private static final String BACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT " + SAVEPOINT;

    /**
     * The queue keys of the batch's cases whose rows another transaction holds now, at most the cap, in key order:
     * first those whose queue another transaction holds (an API write holds a case's queue with its row), then the
     * others by key. Locks the free rows without waiting; the caller rolls back to the savepoint right after, so it
     * holds no case row while it queues. The queues held are read from {@code pg_locks} once per call, and only
     * after the first try timed out.
     */
    private static final String CONTENDED = """
            WITH free AS MATERIALIZED (
                SELECT case_id FROM case_assignments WHERE case_id = ANY (?::uuid[]) FOR NO KEY UPDATE SKIP LOCKED),
            queued AS MATERIALIZED (
                SELECT DISTINCT objid FROM pg_locks
                 WHERE locktype = 'advisory' AND classid = %d::oid AND objsubid = 2 AND pid <> pg_backend_pid()),
            contended AS (
                SELECT DISTINCT %s AS queue_key
                  FROM case_assignments ca
                 WHERE ca.case_id = ANY (?::uuid[])
                   AND NOT EXISTS (SELECT 1 FROM free WHERE free.case_id = ca.case_id)),
            chosen AS (
                SELECT c.queue_key
                  FROM contended c
                 ORDER BY EXISTS (SELECT 1 FROM queued q WHERE q.objid = c.queue_key::oid) DESC, c.queue_key
                 LIMIT ?)
            SELECT queue_key FROM chosen ORDER BY queue_key
            """.formatted(AdvisoryLocks.CASE_QUEUE.namespace(), LockOrder.queueKey("ca.case_id"));

    /** Exclusive places in the given queues, taken in the array's order (ascending keys: no cycle between two writers). */
    private static final String QUEUE_EXCLUSIVE = """
            SELECT count(%s) FROM unnest(?::integer[]) AS k
            """.formatted(LockOrder.queueExclusive("k"));

    private CaseQueue() {
    }

    /**
     * After the first try timed out: back to the savepoint (its row locks and the short timeout go with it),
     * then an exclusive place in the queue of every case of {@code caseIds} that another transaction holds, up to
     * {@code maxQueued} of them: first those whose queue another transaction holds (an API write), then the others
     * in key order; the places are taken in key order. Returns once the writer holds them all: no API write holds
     * those cases then, and no new one can until this transaction ends. An API write holds the queue of its one
     * case, so when more than the cap are contended the rest are held by a bulk writer (a snapshot load, a repair,
     * a replay, another projector), not by a stream of API writes: the upsert waits for their rows, as it would in
     * the queue, without an entry of the lock table each.
     *
     * @return how many cases' queues the writer holds
     */
    static int queueForContended(JdbcTemplate jdbc, List<UUID> caseIds, int maxQueued) {
        jdbc.execute(BACK_TO_SAVEPOINT);
        List<Integer> keys = new ArrayList<>();
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(CONTENDED)) {
                Object[] ids = caseIds.toArray();
                ps.setArray(1, connection.createArrayOf("uuid", ids));
                ps.setArray(2, connection.createArrayOf("uuid", ids));
                ps.setInt(3, maxQueued);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.add(rs.getInt(1));
                    }
                }
            }
            return null;
        });
        jdbc.execute(BACK_TO_SAVEPOINT);
        if (!keys.isEmpty()) {
            jdbc.execute((Connection connection) -> {
                try (PreparedStatement ps = connection.prepareStatement(QUEUE_EXCLUSIVE)) {
                    ps.setArray(1, connection.createArrayOf("integer", keys.toArray()));
                    ps.executeQuery().close();
                }
                return null;
            });
        }
        return keys.size();
    }

    /** Whether the first try's upsert failed for its short timeout (and not for anything the batch must hear of). */
    static boolean timedOut(RuntimeException failure) {
        return DatabaseRejection.lockNotAvailable(failure);
    }
}
