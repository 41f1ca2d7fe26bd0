package org.caseassignments.api.idempotency;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.caseassignments.store.AdvisoryLocks;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The {@code idempotency_keys} table's statements. */
@Repository
class IdempotencyKeys {

    /**
     * The claim: a transaction-scoped advisory lock on the hash of the key's scope, never waited for, and the
     * committed record of the key, if any, in one round trip. Every claim of a key takes the same lock first, so
     * while one create holds it the same request sent again is refused at once instead of holding a pool
     * connection for the other create's whole duration. Two keys whose hashes collide while both are in
     * flight make the later one 409 too, which a retry resolves. The lock's namespace is the keys' own
     * ({@link AdvisoryLocks#IDEMPOTENCY_KEY}): no text a caller sends can meet a case's queue.
     */
    private static final String CLAIM = """
            SELECT pg_try_advisory_xact_lock(%s) AS claimed,
                   k.fingerprint, k.status, k.location, k.etag, k.body
            FROM (VALUES (1)) AS one
            LEFT JOIN idempotency_keys k ON k.caller_sub = ? AND k.caller_jurisdiction = ? AND k.endpoint = ?
                                        AND k.idempotency_key = ?""".formatted(AdvisoryLocks.IDEMPOTENCY_KEY.on(
                    "concat_ws(chr(10), ?::text, ?::text, ?::text, ?::text)"));

    private static final String FIND = """
            SELECT fingerprint, status, location, etag, body FROM idempotency_keys
            WHERE caller_sub = ? AND caller_jurisdiction = ? AND endpoint = ? AND idempotency_key = ?""";

    private static final String RECORD = """
            INSERT INTO idempotency_keys (caller_sub, caller_jurisdiction, endpoint, idempotency_key, fingerprint,
                                          status, location, etag, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""";

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
        return jdbc.query(FIND, (rs, n) -> recorded(rs), scope.columns())
                .stream().findFirst();
    }

    /**
     * The first statement of the create's transaction: takes the key's lock (held until the transaction
     * ends) and reads its committed record. {@link Claim#inFlight()} when another transaction holds it.
     */
    Claim claim(Scope scope) {
        return jdbc.queryForObject(CLAIM, (rs, n) -> claim(rs), claimArgs(scope));
    }

    /** The same claim, as the first query of the round trip of the create's first statement; {@code claimed} gets it. */
    OneRoundTrip.PairedStatement claim(Scope scope, Consumer<Claim> claimed) {
        return new OneRoundTrip.PairedStatement() {
            @Override
            public String sql() {
                return CLAIM;
            }

            @Override
            public Object[] args() {
                return claimArgs(scope);
            }

            @Override
            public void read(ResultSet rows) throws SQLException {
                if (!rows.next()) {
                    throw new SQLException("the claim of an Idempotency-Key returned no row");
                }
                claimed.accept(claim(rows));
            }
        };
    }

    private static Claim claim(ResultSet rs) throws SQLException {
        return rs.getBoolean("claimed")
                ? new Claim(false, rs.getBytes("fingerprint") == null ? null : recorded(rs))
                : new Claim(true, null);
    }

    private static Object[] claimArgs(Scope scope) {
        return Stream.concat(Arrays.stream(scope.columns()), Arrays.stream(scope.columns())).toArray();
    }

    /**
     * The last statement of the create's transaction, sent along with its audit record. A create with the
     * key that committed after the claim's snapshot was taken and before its lock was free makes it fail on
     * the primary key: {@code duplicate} is thrown then (no key of {@code audit_records} can collide, its
     * ids come from a sequence, so a duplicate key in that round trip is this one).
     */
    OneRoundTrip.PairedStatement record(Scope scope, byte[] fingerprint, int status, String location, String etag, String body,
                              Supplier<RuntimeException> duplicate) {
        return new OneRoundTrip.PairedStatement() {
            @Override
            public String sql() {
                return RECORD;
            }

            @Override
            public Object[] args() {
                return Stream.concat(Arrays.stream(scope.columns()), Stream.of(fingerprint, status, location, etag, body))
                        .toArray();
            }

            @Override
            public RuntimeException failed(DataAccessException failure) {
                return failure instanceof DuplicateKeyException ? duplicate.get() : null;
            }
        };
    }

    private static Recorded recorded(ResultSet rs) throws SQLException {
        return new Recorded(rs.getBytes("fingerprint"), rs.getInt("status"), rs.getString("location"),
                rs.getString("etag"), rs.getString("body"));
    }

    /** Deletes at most {@code batch} keys older than {@code retention}; the number deleted. */
    int purge(Duration retention, int batch) {
        return jdbc.update(PURGE, (double) retention.toSeconds(), batch);
    }

    /** The key's lock was held by another transaction, or the key's committed record (null when there is none). */
    record Claim(boolean inFlight, Recorded recorded) {
    }

    record Recorded(byte[] fingerprint, int status, String location, String etag, String body) {
    }
}
