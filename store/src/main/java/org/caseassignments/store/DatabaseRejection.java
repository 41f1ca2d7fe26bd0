package org.caseassignments.store;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

import org.postgresql.util.PSQLException;

/**
 * A row PostgreSQL refused, as the writers report it, and how a writer treats each database failure
 * ({@link Handling}). A failure that belongs to the data of the rows (SQLSTATE classes 22, 23, 54) is isolated at
 * once; one that belongs to the database's state (a lost connection, a deadlock, a missing table, a read-only
 * database, a statement timeout while waiting for a row lock…) is retried with backoff, because dropping rows cannot
 * fix it and an operator or time can; any other statement or transaction timeout shrinks the batch; anything else
 * (a trigger's {@code RAISE}, a row-level-security {@code WITH CHECK}, a corrupt page, {@code 54000}) may belong to
 * one row or to all of them, so the writer retries the same batch a few times and then isolates it, dead-lettering
 * only what fails alone while the table still takes writes. Decisions 13, 27 and 48.
 *
 * @param reason   stable code naming the SQLSTATE class, for {@code dlq.reason} and the rejects file
 * @param sqlState the five-character SQLSTATE
 * @param message  PostgreSQL's message
 */
public record DatabaseRejection(String reason, String sqlState, String message) {

    /** SQLSTATE class 22: a value the column cannot hold (bad byte sequence, string too long, out of range). */
    public static final String DATA_EXCEPTION = "DATABASE_DATA_EXCEPTION";
    /** SQLSTATE class 23: a constraint refuses the row (check, not null, foreign key, unique). */
    public static final String INTEGRITY_VIOLATION = "DATABASE_INTEGRITY_VIOLATION";
    /** SQLSTATE class 54: the row exceeds a limit of PostgreSQL (too many columns, a too large value). */
    public static final String PROGRAM_LIMIT = "DATABASE_PROGRAM_LIMIT_EXCEEDED";
    /**
     * Any other SQLSTATE that PostgreSQL raised for this row alone while the table took other rows: a trigger's
     * {@code RAISE} (P0001), a row-level-security policy (42501), a corrupt page (XX001)…
     */
    public static final String ROW_REFUSED = "DATABASE_ROW_REFUSED";

    /** How a writer treats a failed write of a batch. */
    public enum Handling {
        /** The rows' data (classes 22, 23, 54): find the refused rows by bisection at once. */
        ISOLATE,
        /** Rows or the database, it cannot tell yet: retry the same batch a few times, then isolate. */
        RETRY_THEN_ISOLATE,
        /** A statement or transaction timeout: write smaller batches. */
        SHRINK,
        /** The database's state, whatever the rows: retry with backoff, never set a row aside. */
        RETRY
    }

    /**
     * Failures that are never a row's: connection (08), transaction rollback — serialization, deadlock (40),
     * insufficient resources (53), operator intervention but a cancel (57P…), system errors (58), invalid
     * authorization (28), no such database, schema, table, column or function, a read-only database, an object
     * locked or in use.
     */
    private static final Set<String> DATABASE_STATE_CLASSES = Set.of("08", "28", "40", "53", "58", "3D", "3F");
    private static final Set<String> DATABASE_STATES = Set.of("57P01", "57P02", "57P03", "57P04", "57P05",
            "42P01", "42703", "42883", "25006", "25P03", "55P03", "55006", "55000");
    /**
     * {@code program_limit_exceeded} itself, of class 54 but not always the row's: a too large index entry, and also
     * a full NOTIFY queue, which refuses the commit of every transaction that notifies until listeners read. Retried,
     * and isolated only while the database takes a write that notifies (decision 48).
     */
    private static final String NOT_ONLY_THE_ROWS = "54000";
    /** {@code query_canceled} (a statement timeout) and {@code transaction_timeout} (PostgreSQL 17). */
    private static final Set<String> TIMEOUTS = Set.of("57014", "25P04");

    /** The rejection {@code failure} stands for when it is about the rows' data, or empty. */
    public static Optional<DatabaseRejection> of(Throwable failure) {
        return sqlException(failure).flatMap(sql -> {
            String reason = dataReason(sql.getSQLState());
            return reason == null ? Optional.empty()
                    : Optional.of(new DatabaseRejection(reason, sql.getSQLState(), oneLine(sql.getMessage())));
        });
    }

    /** A row refused alone with {@code failure}: its data class's reason, or {@link #ROW_REFUSED}. */
    public static DatabaseRejection refusedAlone(Throwable failure) {
        return of(failure).orElseGet(() -> {
            SQLException sql = sqlException(failure).orElseThrow(() -> new IllegalArgumentException(
                    "not a PostgreSQL refusal: " + failure, failure));
            return new DatabaseRejection(ROW_REFUSED, sql.getSQLState(), oneLine(sql.getMessage()));
        });
    }

    /**
     * How a writer treats {@code failure}; anything without a SQLSTATE (no connection from the pool…) is {@code RETRY},
     * and so is a refusal of every row a batch isolated ({@link BatchIsolation.EveryRowRefused}).
     */
    public static Handling handling(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof BatchIsolation.EveryRowRefused) {
                return Handling.RETRY;
            }
        }
        String state = sqlException(failure).map(SQLException::getSQLState).orElse(null);
        if (state == null || state.length() != 5) {
            return Handling.RETRY;
        }
        if (NOT_ONLY_THE_ROWS.equals(state)) {
            return Handling.RETRY_THEN_ISOLATE;
        }
        if (dataReason(state) != null) {
            return Handling.ISOLATE;
        }
        if (TIMEOUTS.contains(state)) {
            return waitedForARow(failure) ? Handling.RETRY : Handling.SHRINK;
        }
        if (DATABASE_STATE_CLASSES.contains(state.substring(0, 2)) || DATABASE_STATES.contains(state)) {
            return Handling.RETRY;
        }
        return Handling.RETRY_THEN_ISOLATE;
    }

    /**
     * Whether the statement was waiting for a row another transaction holds when it was cancelled: PostgreSQL says so
     * in the error's context ("while locking tuple (0,1) in relation …", "while updating tuple …", "while inserting
     * index tuple …"). Smaller transactions would wait as long.
     */
    private static boolean waitedForARow(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof PSQLException psql && psql.getServerErrorMessage() != null) {
                String where = psql.getServerErrorMessage().getWhere();
                return where != null && where.contains(" tuple (");
            }
        }
        return false;
    }

    /** Whether {@code failure} is {@code 54000}: a full NOTIFY queue, the database's, or a row's too large entry. */
    public static boolean mayBeTheNotifyQueue(Throwable failure) {
        return sqlException(failure).map(sql -> NOT_ONLY_THE_ROWS.equals(sql.getSQLState())).orElse(false);
    }

    /** Whether {@code failure} is PostgreSQL's {@code lock_not_available}: a {@code lock_timeout} or a {@code NOWAIT}. */
    static boolean lockNotAvailable(Throwable failure) {
        return sqlException(failure).map(sql -> "55P03".equals(sql.getSQLState())).orElse(false);
    }

    private static String dataReason(String state) {
        return switch (state != null && state.length() == 5 ? state.substring(0, 2) : "") {
            case "22" -> DATA_EXCEPTION;
            case "23" -> INTEGRITY_VIOLATION;
            case "54" -> PROGRAM_LIMIT;
            default -> null;
        };
    }

    static Optional<SQLException> sqlException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    /** PostgreSQL adds its detail on a line of its own; a header or a CSV field reads better on one. */
    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
