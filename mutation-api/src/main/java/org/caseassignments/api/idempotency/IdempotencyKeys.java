package org.caseassignments.api.idempotency;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code idempotency_keys} table's statements. */
@Repository
class IdempotencyKeys {

    /**
     * How long the claim waits for a key another transaction inserted and has not committed yet. That
     * transaction is the same request sent again while the first is still running; answering 409 at once
     * frees the connection instead of holding it for the other create's whole duration.
     */
    static final String IN_FLIGHT_WAIT = "100ms";

    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private static final String FIND = """
            SELECT fingerprint, status, location, etag, body FROM idempotency_keys
            WHERE caller_sub = ? AND endpoint = ? AND idempotency_key = ?""";

    private static final String CLAIM = """
            INSERT INTO idempotency_keys (caller_sub, endpoint, idempotency_key, fingerprint)
            VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";

    private static final String RECORD = """
            UPDATE idempotency_keys SET status = ?, location = ?, etag = ?, body = ?
            WHERE caller_sub = ? AND endpoint = ? AND idempotency_key = ?""";

    /** By ctid in a bounded batch: each statement locks few rows, briefly, and the index on created_at finds them. */
    private static final String PURGE = """
            DELETE FROM idempotency_keys WHERE ctid IN (
                SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(secs => ?) LIMIT ?)""";

    private final JdbcTemplate jdbc;

    IdempotencyKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The committed record of the key, if any (an uncommitted one is invisible here). */
    Optional<Recorded> find(Scope scope) {
        return jdbc.query(FIND, (rs, n) -> new Recorded(rs.getBytes("fingerprint"), rs.getInt("status"),
                        rs.getString("location"), rs.getString("etag"), rs.getString("body")),
                scope.callerSub(), scope.endpoint(), scope.key()).stream().findFirst();
    }

    /**
     * Inserts the key inside the caller's transaction. False when the key is taken: by a create still
     * in flight (its row is locked until it ends) or by one that committed since the caller looked.
     */
    boolean claim(Scope scope, byte[] fingerprint) {
        jdbc.execute("SET LOCAL lock_timeout = '" + IN_FLIGHT_WAIT + "'");
        boolean inserted;
        try {
            inserted = jdbc.update(CLAIM, scope.callerSub(), scope.endpoint(), scope.key(), fingerprint) == 1;
        } catch (DataAccessException e) {
            if (!lockTimeout(e)) {
                throw e;
            }
            // The transaction is aborted now; the caller's 409 rolls it back.
            return false;
        }
        jdbc.execute("SET LOCAL lock_timeout TO DEFAULT");
        return inserted;
    }

    /** {@code lock_not_available}: the driver's SQLState, which Spring does not translate to one exception type. */
    private static boolean lockTimeout(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && LOCK_NOT_AVAILABLE.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    void record(Scope scope, int status, String location, String etag, String body) {
        jdbc.update(RECORD, status, location, etag, body, scope.callerSub(), scope.endpoint(), scope.key());
    }

    /** Deletes at most {@code batch} keys older than {@code retention}; the number deleted. */
    int purge(Duration retention, int batch) {
        return jdbc.update(PURGE, (double) retention.toSeconds(), batch);
    }

    record Recorded(byte[] fingerprint, int status, String location, String etag, String body) {
    }
}
