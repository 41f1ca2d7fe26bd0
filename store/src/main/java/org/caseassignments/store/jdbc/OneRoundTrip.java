package org.caseassignments.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * Two statements of one transaction in one round trip: the caller's own, and one of another feature that
 * belongs next to it. The driver sends both (a {@code Parse}/{@code Bind}/{@code Execute} each, one
 * {@code Sync}) and reads both answers before it returns, so the pair costs one wait for PostgreSQL
 * instead of two; a round trip is most of what a short statement costs (BENCHMARKS.md, creates with
 * and without {@code Idempotency-Key}). An error in the first statement aborts the transaction, so the
 * second is not run.
 */
public final class OneRoundTrip {

    /** The other feature's statement: its SQL, its arguments, what to do with its rows, and its own failures. */
    public interface PairedStatement {
        String sql();

        Object[] args();

        /** Its rows, when it is a query; may throw to end the transaction. */
        default void read(ResultSet rows) throws SQLException {
        }

        /** The exception to throw for a failure of this statement, or null when the failure is not its own. */
        default RuntimeException failed(DataAccessException failure) {
            return null;
        }
    }

    /** Binds the caller's own statement's parameters from 1; returns the last index it bound. */
    @FunctionalInterface
    public interface Binder {
        int bind(PreparedStatement statement) throws SQLException;
    }

    private OneRoundTrip() {
    }

    /** Runs {@code first}, hands its rows to it, then returns the rows of {@code sql} with {@code args}. */
    public static <T> List<T> query(JdbcTemplate jdbc, PairedStatement first, String sql, RowMapper<T> mapper, Object... args) {
        return run(first, () -> jdbc.execute(first.sql() + ";\n" + sql, (PreparedStatement statement) -> {
            int i = set(statement, 0, first.args());
            set(statement, i, args);
            statement.execute();
            try (ResultSet rows = statement.getResultSet()) {
                first.read(rows);
            }
            if (!statement.getMoreResults()) {
                throw new SQLException("the second statement of the round trip is not a query: " + sql);
            }
            List<T> result = new ArrayList<>();
            try (ResultSet rows = statement.getResultSet()) {
                for (int n = 0; rows.next(); n++) {
                    result.add(mapper.mapRow(rows, n));
                }
            }
            return result;
        }));
    }

    /** Runs the caller's {@code sql}, bound by {@code own}, then {@code then}, for their effects. */
    public static void update(JdbcTemplate jdbc, String sql, Binder own, PairedStatement then) {
        run(then, () -> jdbc.execute(sql + ";\n" + then.sql(), (PreparedStatement statement) -> {
            set(statement, own.bind(statement), then.args());
            statement.execute();
            return null;
        }));
    }

    private static int set(PreparedStatement statement, int after, Object[] args) throws SQLException {
        int i = after;
        for (Object arg : args) {
            statement.setObject(++i, arg);
        }
        return i;
    }

    private static <T> T run(PairedStatement paired, Supplier<T> statements) {
        try {
            return statements.get();
        } catch (DataAccessException failure) {
            RuntimeException own = paired.failed(failure);
            throw own != null ? own : failure;
        }
    }
}
