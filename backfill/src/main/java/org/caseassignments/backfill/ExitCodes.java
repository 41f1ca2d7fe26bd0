package org.caseassignments.backfill;

/** Exit codes scripts can rely on; every subcommand uses these and only these. */
public final class ExitCodes {

    /** Finished: every row applied ({@code verify}: the projection agrees with the snapshot). */
    public static final int SUCCESS = 0;
    /** Finished, with rejected rows ({@code verify}: or with differences). */
    public static final int FINISHED_WITH_REJECTS = 1;
    /** Bad usage, could not start, or stopped by a failure (source, database, broker) or by {@code --max-errors}. */
    public static final int COULD_NOT_START = 2;
    /** Stopped on purpose before the end ({@code --max-batches}); running again with the same checkpoint continues. */
    public static final int STOPPED_BEFORE_THE_END = 3;
    /** Refused at once: another run of the same job holds its claim ({@code rebuild}); nothing was changed. */
    public static final int ANOTHER_RUN = 4;

    private ExitCodes() {
    }
}
