package org.caseassignments.store;

import java.sql.SQLException;
import java.util.Optional;

/**
 * A database error that belongs to the data of the rows written, not to the database's state: PostgreSQL
 * would refuse the same rows again, so retrying the batch cannot help and the rows that cause it must be
 * set aside. Everything else — connection, serialization, deadlock, shutdown, resources, a missing
 * privilege or table — is transient for the writers: it is retried with backoff (or stops a command-line
 * run), because dropping rows cannot fix it and an operator or time can. Decision 13.
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

    /** The rejection {@code failure} stands for, or empty when it is transient (retry the same rows). */
    public static Optional<DatabaseRejection> of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                String reason = switch (state.length() == 5 ? state.substring(0, 2) : "") {
                    case "22" -> DATA_EXCEPTION;
                    case "23" -> INTEGRITY_VIOLATION;
                    case "54" -> PROGRAM_LIMIT;
                    default -> null;
                };
                return reason == null ? Optional.empty()
                        : Optional.of(new DatabaseRejection(reason, state, oneLine(sql.getMessage())));
            }
        }
        return Optional.empty();
    }

    /** PostgreSQL adds its detail on a line of its own; a header or a CSV field reads better on one. */
    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
