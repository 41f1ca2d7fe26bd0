package org.caseassignments.api.problem;

import java.net.URI;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import org.springframework.http.HttpStatus;

/**
 * The stable {@code code} of every problem document, with its status and title. Clients branch on
 * the code; the title and detail are for people. The {@code type} URI is derived from the code.
 */
public enum ProblemCode {
    PRECONDITION_REQUIRED(HttpStatus.PRECONDITION_REQUIRED, "If-Match required"),
    MALFORMED_IF_MATCH(HttpStatus.BAD_REQUEST, "Malformed If-Match"),
    PRECONDITION_FAILED(HttpStatus.PRECONDITION_FAILED, "Version does not match"),
    CONCURRENT_MODIFICATION(HttpStatus.CONFLICT, "Authorized input changed before the write"),
    INVALID_TRANSITION(HttpStatus.CONFLICT, "Invalid state transition"),
    DUPLICATE_LICENSE_NUMBER(HttpStatus.CONFLICT, "Duplicate license number"),
    HOME_AT_CAPACITY(HttpStatus.CONFLICT, "Foster home at capacity"),
    HOME_NOT_LICENSED(HttpStatus.CONFLICT, "Foster home not licensed for this placement"),
    CAPACITY_BELOW_OCCUPANCY(HttpStatus.CONFLICT, "Capacity below the active placements"),
    PLACEMENT_NEEDS_HOME(HttpStatus.CONFLICT, "An ACTIVE placement needs a foster home"),
    FINAL_PLACEMENT_KEEPS_HOME(HttpStatus.CONFLICT, "An ended or cancelled placement keeps its foster home"),
    HOME_OF_ANOTHER_JURISDICTION(HttpStatus.CONFLICT, "Foster home not of the case's jurisdiction"),
    INTEGRITY_VIOLATION(HttpStatus.CONFLICT, "Conflicts with stored data"),
    IDEMPOTENCY_KEY_IN_USE(HttpStatus.CONFLICT, "A request with this Idempotency-Key is in progress"),
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency-Key reused for a different request"),
    IDEMPOTENCY_KEY_REQUIRED(HttpStatus.BAD_REQUEST, "Idempotency-Key required"),
    PROJECTION_BEHIND(HttpStatus.CONFLICT, "The projection has not reached the revision yet"),
    TOO_MANY_WAITERS(HttpStatus.TOO_MANY_REQUESTS, "Too many requests waiting for the projection"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
    VALIDATION_FAILED(HttpStatus.BAD_REQUEST, "Validation failed"),
    MALFORMED_REQUEST(HttpStatus.BAD_REQUEST, "Malformed request body"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Request body too large"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    BAD_REQUEST(HttpStatus.BAD_REQUEST, "Bad request"),
    NOT_IMPLEMENTED(HttpStatus.NOT_IMPLEMENTED, "Method not implemented"),
    DATABASE_BUSY(HttpStatus.SERVICE_UNAVAILABLE, "The database is busy"),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private static final Set<ProblemCode> FRAMEWORK = EnumSet.of(NOT_FOUND, PAYLOAD_TOO_LARGE, METHOD_NOT_ALLOWED,
            NOT_ACCEPTABLE, UNSUPPORTED_MEDIA_TYPE, BAD_REQUEST, NOT_IMPLEMENTED, INTERNAL_ERROR);
    private static final String TYPE_PREFIX = "urn:case-assignments:problem:";

    private final HttpStatus status;
    private final String title;

    ProblemCode(HttpStatus status, String title) {
        this.status = status;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** {@code urn:case-assignments:problem:precondition-failed} for {@code PRECONDITION_FAILED}. */
    public URI type() {
        return URI.create(TYPE_PREFIX + name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    /** The code for a status raised by the framework (routing, content negotiation) rather than by this service. */
    static ProblemCode forStatus(int status) {
        return FRAMEWORK.stream()
                .filter(code -> code.status.value() == status)
                .findFirst()
                .orElse(status >= 500 ? INTERNAL_ERROR : BAD_REQUEST);
    }
}
