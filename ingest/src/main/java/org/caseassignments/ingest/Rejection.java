package org.caseassignments.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.store.DatabaseRejection;
import org.caseassignments.store.StorableText;
import org.caseassignments.store.StorableTime;

/**
 * Why an input record was dead-lettered: a {@link org.caseassignments.schemas.serde.DecodeFailure}
 * name, or one of the validation reasons below. The code travels in the {@code dlq.reason} header.
 *
 * @param code    stable reason code
 * @param message what was wrong with which record, for the operator; at most {@link #MAX_MESSAGE_LENGTH}
 *                characters, so a huge bad value cannot make a huge header or log line
 */
public record Rejection(String code, String message) {

    public static final String NULL_VALUE = "NULL_VALUE";
    public static final String INVALID_CASE_ID = "INVALID_CASE_ID";
    public static final String NEGATIVE_REVISION = "NEGATIVE_REVISION";
    public static final String UNEXPECTED_RECORD_TYPE = "UNEXPECTED_RECORD_TYPE";
    /** The case's jurisdiction is not a jurisdiction name ({@code Jurisdictions}). */
    public static final String INVALID_JURISDICTION = "INVALID_JURISDICTION";
    /** The record key is missing or is not a case id in canonical form. */
    public static final String INVALID_KEY = "INVALID_KEY";
    /** The record key names another case than the value's {@code case_id}. */
    public static final String KEY_MISMATCH = "KEY_MISMATCH";
    /** A subject PostgreSQL cannot store or this service does not accept ({@link StorableText}). */
    public static final String INVALID_TEXT = StorableText.INVALID_TEXT;
    /** An {@code occurred_at} outside what PostgreSQL stores ({@link StorableTime}). */
    public static final String INVALID_OCCURRED_AT = "INVALID_OCCURRED_AT";

    /** Every code a dead letter can carry: the permanent decode failures, the reasons above and PostgreSQL's. */
    public static final List<String> CODES = Stream.of(
            Arrays.stream(DecodeFailure.values()).filter(failure -> !failure.isTransient()).map(Enum::name),
            Stream.of(NULL_VALUE, INVALID_CASE_ID, NEGATIVE_REVISION, UNEXPECTED_RECORD_TYPE, INVALID_JURISDICTION,
                    INVALID_KEY, KEY_MISMATCH, INVALID_TEXT, INVALID_OCCURRED_AT),
            Stream.of(DatabaseRejection.DATA_EXCEPTION, DatabaseRejection.INTEGRITY_VIOLATION,
                    DatabaseRejection.PROGRAM_LIMIT, DatabaseRejection.ROW_REFUSED))
            .flatMap(codes -> codes).distinct().toList();

    static final int MAX_MESSAGE_LENGTH = 1_000;
    private static final int MAX_QUOTED_LENGTH = 80;

    public Rejection {
        if (message.length() > MAX_MESSAGE_LENGTH) {
            message = message.substring(0, MAX_MESSAGE_LENGTH - 1) + "…";
        }
    }

    /** Text from a record, quoted for a message: at most 80 characters, control characters escaped. */
    static String quote(String value) {
        StringBuilder quoted = new StringBuilder("'");
        int shown = Math.min(value.length(), MAX_QUOTED_LENGTH);
        for (int i = 0; i < shown; i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c)) {
                quoted.append(String.format("\\u%04X", (int) c));
            } else {
                quoted.append(c);
            }
        }
        quoted.append('\'');
        return value.length() > shown ? quoted + "… (" + value.length() + " characters)" : quoted.toString();
    }

    /** Bytes from a record (a key), quoted as their UTF-8 text. */
    static String quote(byte[] value) {
        return quote(new String(value, 0, Math.min(value.length, 4 * MAX_QUOTED_LENGTH), StandardCharsets.UTF_8))
                + (value.length > 4 * MAX_QUOTED_LENGTH ? " (" + value.length + " bytes)" : "");
    }
}
