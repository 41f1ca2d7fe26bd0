package org.caseassignments.backfill.snapshot;

import org.caseassignments.ingest.Rejection;

/**
 * A row that cannot be applied, with a stable reason code, a message for the operator, and the
 * record as it was read. The reasons a row shares with an event are the event path's own
 * ({@link Rejection}), so a case id, revision, subject or jurisdiction is refused under one name
 * whichever way it came in; the others belong to reading a file or table.
 */
public record BadRow(long line, String reason, String message, String record) implements SnapshotRecord {

    public static final String INVALID_CASE_ID = Rejection.INVALID_CASE_ID;
    public static final String NEGATIVE_REVISION = Rejection.NEGATIVE_REVISION;
    public static final String INVALID_JURISDICTION = Rejection.INVALID_JURISDICTION;
    /** A subject PostgreSQL cannot store or this service does not accept: the one check the projector applies too. */
    public static final String INVALID_TEXT = Rejection.INVALID_TEXT;

    public static final String INVALID_REVISION = "INVALID_REVISION";
    public static final String MISSING_COLUMN = "MISSING_COLUMN";
    public static final String EXTRA_COLUMN = "EXTRA_COLUMN";
    public static final String INVALID_VALUE = "INVALID_VALUE";
    public static final String INVALID_JSON = "INVALID_JSON";

    BadRow withRecord(String raw) {
        return new BadRow(line, reason, message, raw);
    }
}
