package org.caseassignments.backfill;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.TimeoutException;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.schemas.serde.SchemaRegistryClient;
import org.caseassignments.store.BatchIsolation;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * Exit codes scripts can rely on; every subcommand uses these and only these. 64 and 69 are the BSD sysexits
 * {@code EX_USAGE} and {@code EX_UNAVAILABLE}, so a script can tell "fix the command" from "try again later".
 */
public final class ExitCodes {

    /** Finished: every row applied ({@code verify}: the projection agrees with the snapshot). */
    public static final int SUCCESS = 0;
    /** Finished, with rejected rows ({@code verify}: or with differences). */
    public static final int FINISHED_WITH_REJECTS = 1;
    /** Refused to start (a state it will not touch) or stopped by a failure (source, database, broker) or by {@code --max-errors}. */
    public static final int COULD_NOT_START = 2;
    /** Stopped on purpose before the end ({@code --max-batches}); running again with the same checkpoint continues. */
    public static final int STOPPED_BEFORE_THE_END = 3;
    /** Refused at once: another run of the same job holds its claim ({@code rebuild}); nothing was changed. */
    public static final int ANOTHER_RUN = 4;
    /** Bad usage: an unknown option, a value that does not parse, options that do not go together (sysexits EX_USAGE). */
    public static final int USAGE = 64;
    /** A dependency did not answer: the database, the broker or the schema registry (sysexits EX_UNAVAILABLE). */
    public static final int UNAVAILABLE = 69;

    /** The lines every {@code --help} ends with, after its own exit codes. */
    static final String[] HELP_FOOTER = {
            "64 bad usage (an unknown option, a value that does not parse, options that do not go together);",
            "69 the database, the broker or the schema registry did not answer (run again once it does)."};

    private ExitCodes() {
    }

    /**
     * {@link #UNAVAILABLE} where running again later can help, else {@link #COULD_NOT_START}. The database's root
     * SQLState decides when there is one: connection exceptions (08), a server shutting down (57P01-57P03) or too many
     * connections (53300) are 69, and so is a batch whose every row the database refused alike
     * ({@link BatchIsolation.EveryRowRefused}: a trigger or policy refusing everything); wrong credentials (28), no such database (3D000), a limit (54) or anything else 2.
     * The broker: a timeout, a network error or no coordinator available is 69 (not every error Kafka calls retriable:
     * a missing topic or a corrupt record is 2). The registry: 401 or 403 is 2; no answer or another status 69.
     */
    public static int failure(Throwable failure) {
        List<Throwable> causes = causes(failure);
        if (causes.stream().anyMatch(BatchIsolation.EveryRowRefused.class::isInstance)) {
            // every row refused alike: the database's state, which an operator's fix lets the same batch through
            return UNAVAILABLE;
        }
        String sqlState = null;
        for (Throwable e : causes) {
            if (e instanceof SQLException sql && sql.getSQLState() != null) {
                sqlState = sql.getSQLState();
            }
        }
        if (sqlState != null) {
            return databaseUnavailable(sqlState) ? UNAVAILABLE : COULD_NOT_START;
        }
        for (Throwable e : causes) {
            if (e instanceof SchemaRegistryClient.RegistryException answer && (answer.status() == 401 || answer.status() == 403)) {
                return COULD_NOT_START;
            }
        }
        for (Throwable e : causes) {
            if (e instanceof TimeoutException || e instanceof NetworkException || e instanceof CoordinatorNotAvailableException
                    || e instanceof DataAccessResourceFailureException || e instanceof SQLTransientConnectionException
                    || e instanceof ConnectException || e instanceof UnknownHostException
                    || e instanceof EventDecodingException decoding && decoding.failure().isTransient()) {
                return UNAVAILABLE;
            }
        }
        return COULD_NOT_START;
    }

    private static boolean databaseUnavailable(String sqlState) {
        return sqlState.startsWith("08") || sqlState.equals("57P01") || sqlState.equals("57P02")
                || sqlState.equals("57P03") || sqlState.equals("53300");
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable e = failure; e != null && !causes.contains(e); e = e.getCause()) {
            causes.add(e);
        }
        return causes;
    }
}
