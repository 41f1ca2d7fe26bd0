package org.caseassignments.api.idempotency;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.caseassignments.api.idempotency.IdempotencyKeys.Claim;
import org.caseassignments.api.idempotency.IdempotencyKeys.Recorded;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.FieldError;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code Idempotency-Key} of a create. The create's own transaction claims the key first
 * ({@link IdempotentCreate#claim()}): a lock on the key that is never waited for, so of two concurrent
 * requests with it one goes on and the other is 409 {@code IDEMPOTENCY_KEY_IN_USE}, and the key's
 * committed record, if any. A record with the same fingerprint is replayed once the transaction has
 * rolled back and the caller may still READ the resource it names (otherwise the usual empty 403); one
 * with another fingerprint is 422 {@code IDEMPOTENCY_KEY_REUSED}. The answer is recorded last, in the
 * same transaction: a create that fails leaves nothing behind, and a retry can succeed.
 */
@Component
public class Idempotency {

    public static final String HEADER = "Idempotency-Key";
    static final int MAX_KEY_LENGTH = 255;
    static final String METRIC = "api.idempotency";

    private final IdempotencyKeys keys;
    private final IdempotencyProperties properties;
    private final PolicyEngine policy;
    private final JsonMapper json;
    private final MeterRegistry meters;

    Idempotency(IdempotencyKeys keys, IdempotencyProperties properties, PolicyEngine policy,
                JsonMapper json, MeterRegistry meters) {
        this.keys = keys;
        this.properties = properties;
        this.policy = policy;
        this.json = json;
        this.meters = meters;
    }

    /**
     * Reads and checks the header. Runs before any transaction and reads nothing.
     *
     * @param body         the create's parsed body, whose canonical JSON is part of the fingerprint
     * @param responseType the type of the create's response body, to replay it
     * @param current      the resource a replay names, by the id in its Location, as a READ sees it now
     */
    public <T> IdempotentCreate<T> begin(Caller caller, HttpServletRequest request, Object body, Class<T> responseType,
                                         Function<UUID, Optional<ResourceRef>> current) {
        String key = key(request);
        if (key == null) {
            return IdempotentCreate.without();
        }
        Scope scope = new Scope(caller.sub(), caller.jurisdiction(), request.getMethod() + " " + template(request), key);
        return new IdempotentCreate<>(this, scope, fingerprint(request, body),
                recorded -> replay(caller, recorded, responseType, current));
    }

    /** Claims the key inside the create's transaction: 409 when it is in flight, a {@link Repeat} when it was answered. */
    void claim(Scope scope) {
        decide(keys.claim(scope));
    }

    /** {@link #claim} as the first query of the round trip of the create's first statement. */
    OneRoundTrip.PairedStatement claimFirst(Scope scope) {
        return keys.claim(scope, this::decide);
    }

    private void decide(Claim claim) {
        if (claim.inFlight()) {
            count("in_use");
            throw new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_IN_USE, "A request with this " + HEADER + " is still "
                    + "being processed; retry the same request to get its answer");
        }
        if (claim.recorded() != null) {
            throw new Repeat(claim.recorded());
        }
    }

    /**
     * Keeps the answer, as the last statement of the create's transaction, sent along with its audit
     * record. A request with the key that committed between the claim's snapshot and its lock makes this
     * a {@link Repeat} too, to be looked up once the transaction has rolled back.
     */
    OneRoundTrip.PairedStatement record(Scope scope, byte[] fingerprint, ResponseEntity<?> response) {
        URI location = response.getHeaders().getLocation();
        return keys.record(scope, fingerprint, response.getStatusCode().value(),
                location == null ? null : location.toString(), response.getHeaders().getETag(),
                json.writeValueAsString(response.getBody()), () -> new Repeat(null));
    }

    /**
     * The answer to a request whose key was answered already, after its create rolled back: 422 for
     * another request under the key, otherwise the recorded answer.
     */
    <T> ResponseEntity<T> repeated(Scope scope, byte[] fingerprint, Repeat repeat,
                                   Function<Recorded, ResponseEntity<T>> replay) {
        Recorded recorded = repeat.recorded != null ? repeat.recorded : keys.find(scope).orElseThrow(
                () -> new IllegalStateException("the key's record was committed and is no longer there"));
        if (!MessageDigest.isEqual(recorded.fingerprint(), fingerprint)) {
            count("reused");
            throw new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_REUSED, "This " + HEADER + " was used for a different "
                    + "request (method, path or body) by the same caller in this jurisdiction on this endpoint; send a new key for a "
                    + "new request");
        }
        return replay.apply(recorded);
    }

    private <T> ResponseEntity<T> replay(Caller caller, Recorded recorded, Class<T> responseType,
                                         Function<UUID, Optional<ResourceRef>> current) {
        URI location = URI.create(recorded.location());
        String path = location.getPath();
        UUID id = UUID.fromString(path.substring(path.lastIndexOf('/') + 1));
        ResourceRef resource = current.apply(id).orElseThrow(() -> ApiProblem.notFound("Resource", id));
        policy.require(caller, Action.READ, resource);
        count("replayed");
        return ResponseEntity.status(recorded.status()).location(location).eTag(recorded.etag())
                .header(HEADER + "-Replayed", "true")
                .body(json.readValue(recorded.body(), responseType));
    }

    /** The key has a committed answer: thrown out of the create's transaction so that it rolls back. */
    static final class Repeat extends RuntimeException {
        final transient Recorded recorded;

        Repeat(Recorded recorded) {
            super(null, null, false, false);
            this.recorded = recorded;
        }
    }

    /** 1 to 255 visible ASCII characters, one header line; null when absent and not required. */
    private String key(HttpServletRequest request) {
        List<String> values = Collections.list(request.getHeaders(HEADER));
        if (values.isEmpty()) {
            if (properties.required()) {
                throw new ApiProblem(ProblemCode.IDEMPOTENCY_KEY_REQUIRED, "Every create needs an " + HEADER
                        + " header (1 to " + MAX_KEY_LENGTH + " visible ASCII characters), unique per request");
            }
            return null;
        }
        String key = values.get(0);
        if (values.size() > 1 || !visibleAscii(key)) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend",
                    List.of(new FieldError(HEADER, "must be one header of 1 to " + MAX_KEY_LENGTH
                            + " visible ASCII characters")));
        }
        return key;
    }

    private static boolean visibleAscii(String key) {
        return !key.isEmpty() && key.length() <= MAX_KEY_LENGTH && key.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    private static String template(HttpServletRequest request) {
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return pattern == null ? request.getRequestURI() : pattern.toString();
    }

    /** SHA-256 of method, path and the body as the server read it, written back in one canonical form. */
    private byte[] fingerprint(HttpServletRequest request, Object body) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update((request.getMethod() + "\n" + request.getRequestURI() + "\n").getBytes(StandardCharsets.UTF_8));
            sha.update(json.writeValueAsBytes(body));
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private void count(String outcome) {
        meters.counter(METRIC, "outcome", outcome).increment();
    }
}
