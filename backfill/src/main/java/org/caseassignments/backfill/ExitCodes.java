package org.caseassignments.backfill;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLTransientConnectionException;

import org.apache.kafka.common.errors.RetriableException;
import org.caseassignments.schemas.serde.EventDecodingException;
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

    /** {@link #UNAVAILABLE} when a dependency did not answer (anywhere in the causes), else {@link #COULD_NOT_START}. */
    public static int failure(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof RetriableException || e instanceof DataAccessResourceFailureException
                    || e instanceof SQLTransientConnectionException || e instanceof ConnectException
                    || e instanceof UnknownHostException
                    || e instanceof EventDecodingException decoding && decoding.failure().isTransient()) {
                return UNAVAILABLE;
            }
        }
        return COULD_NOT_START;
    }
}
