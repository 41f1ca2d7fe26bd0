package org.caseassignments.backfill.snapshot;

import org.caseassignments.store.StorableText;

/**
 * A row that cannot be applied, with a stable reason code, a message for the operator, and the
 * record as it was read.
 */
public record BadRow(long line, String reason, String message, String record) implements SnapshotRecord {

    public static final String INVALID_CASE_ID = "INVALID_CASE_ID";
    public static final String INVALID_REVISION = "INVALID_REVISION";
    public static final String NEGATIVE_REVISION = "NEGATIVE_REVISION";
    public static final String MISSING_COLUMN = "MISSING_COLUMN";
    public static final String EXTRA_COLUMN = "EXTRA_COLUMN";
    public static final String INVALID_VALUE = "INVALID_VALUE";
    public static final String INVALID_JURISDICTION = "INVALID_JURISDICTION";
    public static final String INVALID_JSON = "INVALID_JSON";
    /** A subject PostgreSQL cannot store or this service does not accept: the one check the projector applies too. */
    public static final String INVALID_TEXT = StorableText.INVALID_TEXT;

    BadRow withRecord(String raw) {
        return new BadRow(line, reason, message, raw);
    }
}
