package org.caseassignments.api.problem;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * 503 {@code DATABASE_BUSY}: PostgreSQL, or the pool in front of it, refused the request for its own state, not for
 * anything the request said: too many connections (53300), out of memory or lock table (53200), a lock not granted
 * within {@code lock_timeout} (55P03), a deadlock (40P01) or a serialization failure (40001), the connection lost
 * (class 08), or no pooled connection free within the pool's {@code connection-timeout}
 * ({@link SQLTransientConnectionException}): the same request may be sent again after {@code Retry-After}. A
 * statement cancelled at {@code statement_timeout} (57014) is 503 too, but without {@code Retry-After}: the same
 * statement may run as long again. Not busy, so 500: a protocol violation (08P01), and a connection lost because the
 * request's own statement outlasted the socket timeout ({@link SocketTimeoutException} among the causes). A lost
 * connection may have lost the answer of a commit that happened: the caller re-reads, or retries a create with the
 * same {@code Idempotency-Key}, which is made once.
 */
final class DatabaseBusy extends ApiProblem {

    /** Long enough for a lock holder's transaction or a burst to pass, short enough not to hold a caller back. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    /** What the meter and the log say when the pool, not PostgreSQL, refused: there is no SQLSTATE then. */
    static final String POOL_TIMEOUT = "pool-timeout";

    private static final Set<String> STATES = Set.of("53300", "53200", "55P03", "57014", "40P01", "40001");

    private final String reason;

    /** A statement cancelled at the session's {@code statement_timeout}: busy, but no promise that a retry is faster. */
    private static final String STATEMENT_TIMEOUT = "57014";

    /** A class-08 state that is the request's own fault, not the connection's. */
    private static final String PROTOCOL_VIOLATION = "08P01";

    private DatabaseBusy(String reason) {
        super(ProblemCode.DATABASE_BUSY, "The database could not serve the request now (it is busy, or the connection "
                + "to it was lost); retry after Retry-After seconds", List.of(), Map.of(),
                STATEMENT_TIMEOUT.equals(reason) ? null : RETRY_AFTER);
        this.reason = reason;
    }

    /** The refusal {@code failure} carries (its SQLSTATE, or {@link #POOL_TIMEOUT}), or null when it is no such refusal. */
    static DatabaseBusy of(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SQLTransientConnectionException && !(e.getCause() instanceof SQLException)) {
                return new DatabaseBusy(POOL_TIMEOUT);
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (STATES.contains(state)) {
                    return new DatabaseBusy(state);
                }
                if (state.startsWith("08")) {
                    return PROTOCOL_VIOLATION.equals(state) || causedBySocketTimeout(sql) ? null : new DatabaseBusy(state);
                }
            }
        }
        return null;
    }

    private static boolean causedBySocketTimeout(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The SQLSTATE, or {@link #POOL_TIMEOUT}. */
    String reason() {
        return reason;
    }
}
