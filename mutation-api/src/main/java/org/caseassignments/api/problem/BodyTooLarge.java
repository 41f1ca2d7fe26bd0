package org.caseassignments.api.problem;

import java.io.IOException;

/**
 * A request body over the configured limit, raised from the body stream (an {@link IOException}
 * because that is what a stream may throw); {@link ErrorHandling} answers it with a 413
 * {@code PAYLOAD_TOO_LARGE} problem document.
 */
public final class BodyTooLarge extends IOException {

    public BodyTooLarge(long limit) {
        super("request body exceeds " + limit + " bytes");
    }
}
