package org.caseassignments.schemas.serde;

/**
 * Why a record could not be decoded. The name travels in dead-letter headers, so it is part of the
 * operational contract: never rename a constant.
 */
public enum DecodeFailure {
    /** Null or empty value. */
    EMPTY_PAYLOAD,
    /** First byte is neither the Confluent magic byte 0 nor the single-object marker C3 01. */
    UNKNOWN_FRAMING,
    /** The writer schema (by registry id or fingerprint) is not known, or names no bundled record. */
    UNKNOWN_SCHEMA,
    /**
     * The registry holds a schema under the record's id that this reader cannot use: a JSON or Protobuf schema,
     * Avro with references to other subjects, or text Avro cannot parse.
     */
    UNSUPPORTED_SCHEMA,
    /** The writer schema lacks a field the current class requires and has no default for. */
    MISSING_REQUIRED_FIELD,
    /** The writer schema cannot be resolved to the current class for another reason. */
    INCOMPATIBLE_SCHEMA,
    /** The framing and schema were fine but the Avro body is truncated or corrupt. */
    MALFORMED_PAYLOAD,
    /** The schema registry could not be reached or answered an error: retry, do not dead-letter. */
    REGISTRY_UNAVAILABLE;

    /** Transient failures must be retried; all others are permanent and belong in a dead-letter topic. */
    public boolean isTransient() {
        return this == REGISTRY_UNAVAILABLE;
    }
}
