package org.caseassignments.api.problem;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An error this service answers with a problem document: what happened, to what, and what the
 * caller can do next.
 */
public class ApiProblem extends RuntimeException {

    private final ProblemCode code;
    private final transient List<FieldError> errors;
    private final transient Map<String, Object> properties;
    private final Duration retryAfter;
    private final transient List<String> changed;

    public ApiProblem(ProblemCode code, String detail) {
        this(code, detail, List.of());
    }

    public ApiProblem(ProblemCode code, String detail, List<FieldError> errors) {
        this(code, detail, errors, Map.of(), null, List.of());
    }

    /**
     * @param properties members of the problem document besides the standard ones, named as on the wire
     * @param retryAfter when the caller may try again ({@code Retry-After}); null when the answer says nothing
     */
    protected ApiProblem(ProblemCode code, String detail, List<FieldError> errors, Map<String, Object> properties,
                         Duration retryAfter) {
        this(code, detail, errors, properties, retryAfter, List.of());
    }

    private ApiProblem(ProblemCode code, String detail, List<FieldError> errors, Map<String, Object> properties,
                       Duration retryAfter, List<String> changed) {
        super(detail, null, false, false);
        this.code = code;
        this.errors = List.copyOf(errors);
        this.properties = new LinkedHashMap<>(properties);
        this.retryAfter = retryAfter;
        this.changed = List.copyOf(changed);
    }

    /** 400 {@code BAD_REQUEST}: a query string or form body whose names or values do not percent-decode. */
    public static ApiProblem notPercentEncoded() {
        return new ApiProblem(ProblemCode.BAD_REQUEST, "The query string or form parameters are not validly "
                + "percent-encoded");
    }

    public static ApiProblem notFound(String what, UUID id) {
        return new ApiProblem(ProblemCode.NOT_FOUND, what + " " + id + " does not exist");
    }

    public static ApiProblem invalidField(String field, String message) {
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend",
                List.of(new FieldError(field, message)));
    }

    /**
     * 409 {@code CONCURRENT_MODIFICATION}: what the decision consumed changed between authorization and the
     * row lock.
     *
     * @param changed the fields that differ, named in the detail; empty when {@code what} says it all
     */
    public static ApiProblem changedSinceAuthorization(String what, List<String> changed) {
        return new ApiProblem(ProblemCode.CONCURRENT_MODIFICATION, what + " changed since authorization"
                + (changed.isEmpty() ? "" : " (" + String.join(", ", changed) + ")") + " — re-read and retry",
                List.of(), Map.of(), null, changed);
    }

    public ProblemCode code() {
        return code;
    }

    public List<FieldError> errors() {
        return errors;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    /** For 409 {@code CONCURRENT_MODIFICATION}: the fields that changed since authorization; empty otherwise. */
    public List<String> changed() {
        return changed;
    }
}
