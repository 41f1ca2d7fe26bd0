package org.caseassignments.schemas.serde;

import org.apache.kafka.common.errors.SerializationException;

/** A record that could not be decoded, with a stable {@link DecodeFailure} for dead-letter headers. */
public class EventDecodingException extends SerializationException {

    private final DecodeFailure failure;

    public EventDecodingException(DecodeFailure failure, String message) {
        super(failure + ": " + message);
        this.failure = failure;
    }

    public EventDecodingException(DecodeFailure failure, String message, Throwable cause) {
        super(failure + ": " + message, cause);
        this.failure = failure;
    }

    public DecodeFailure failure() {
        return failure;
    }
}
