package org.caseassignments.ingest;

/**
 * Why an input record was dead-lettered: a {@link org.caseassignments.schemas.serde.DecodeFailure}
 * name, or one of the validation reasons below. The code travels in the {@code dlq.reason} header.
 *
 * @param code    stable reason code
 * @param message what was wrong with which record, for the operator
 */
public record Rejection(String code, String message) {

    public static final String NULL_VALUE = "NULL_VALUE";
    public static final String INVALID_CASE_ID = "INVALID_CASE_ID";
    public static final String NEGATIVE_REVISION = "NEGATIVE_REVISION";
    public static final String UNEXPECTED_RECORD_TYPE = "UNEXPECTED_RECORD_TYPE";
    public static final String INVALID_JURISDICTION = "INVALID_JURISDICTION";
}
