package org.caseassignments.backfill;

/** Exit codes scripts can rely on. */
final class ExitCodes {

    static final int SUCCESS = 0;
    static final int FINISHED_WITH_REJECTS = 1;
    static final int COULD_NOT_START = 2;

    private ExitCodes() {
    }
}
