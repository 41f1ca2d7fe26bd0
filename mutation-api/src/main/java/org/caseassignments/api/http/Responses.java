package org.caseassignments.api.http;

import java.net.URI;
import java.util.Collections;

import jakarta.servlet.http.HttpServletRequest;
import org.caseassignments.api.problem.ApiProblem;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Successful answers carry the strong ETag ({@link EntityTags}) of the version they show or wrote;
 * a read of one resource honours the caller's preconditions ({@link #read}).
 */
public final class Responses {

    private static final String IF_NONE_MATCH = "If-None-Match";

    private Responses() {
    }

    public static <T> ResponseEntity<T> ok(String etag, T body) {
        return ResponseEntity.ok().eTag(etag).body(body);
    }

    /**
     * A GET or HEAD of one resource, after authorization, under RFC 9110 §13.2.2: an {@code If-Match}
     * that no current tag matches (strong comparison; {@code *} matches) is a 412; an
     * {@code If-None-Match} that matches (weak comparison; {@code *} matches) is a 304 with the ETag
     * and no body. A malformed {@code If-Match} is a 400 as on writes; a malformed
     * {@code If-None-Match} is ignored, since all it could do is save a body.
     */
    public static <T> ResponseEntity<T> read(HttpServletRequest request, String etag, T body) {
        IfMatch ifMatch = IfMatch.condition(Collections.list(request.getHeaders(IfMatch.HEADER)), IfMatch.HEADER);
        if (ifMatch != null) {
            ifMatch.require(etag, request.getRequestURI());
        }
        if (notModified(request, etag)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).build();
        }
        return ok(etag, body);
    }

    private static boolean notModified(HttpServletRequest request, String etag) {
        try {
            IfMatch ifNoneMatch = IfMatch.condition(Collections.list(request.getHeaders(IF_NONE_MATCH)), IF_NONE_MATCH);
            return ifNoneMatch != null && ifNoneMatch.matchesWeakly(etag);
        } catch (ApiProblem malformed) {
            return false;
        }
    }

    public static <T> ResponseEntity<T> created(URI location, String etag, T body) {
        return ResponseEntity.created(location).eTag(etag).body(body);
    }

    public static ResponseEntity<Void> noContent(String etag) {
        return ResponseEntity.noContent().eTag(etag).build();
    }

    /** The response header that says which assignment revision a write of a case-scoped record was made under. */
    public static final String ASSIGNMENT_REVISION = "Assignment-Revision";

    /** What the {@code Retry-After} of a 409 {@code PROJECTION_BEHIND} means, for the API description. */
    public static final String PROJECTION_BEHIND_RETRY_AFTER = "On PROJECTION_BEHIND: seconds to wait before trying "
            + "again (1); the same request is safe to repeat, nothing was written";

    /** What a 429 {@code TOO_MANY_WAITERS} means, for the API description. */
    public static final String TOO_MANY_WAITERS = "TOO_MANY_WAITERS: this instance, or this caller, already holds as "
            + "many requests waiting for the projection as allowed (api.assignment.max-waiters, "
            + "api.assignment.max-waiters-per-subject); nothing was read or written";

    /** What the {@code Retry-After} of a 429 {@code TOO_MANY_WAITERS} means, for the API description. */
    public static final String TOO_MANY_WAITERS_RETRY_AFTER = "Seconds to wait before asking again (1); the same "
            + "request is safe to repeat, or to send without a wait";

    /** What a 503 {@code DATABASE_BUSY} means, for the API description. */
    public static final String DATABASE_BUSY = "DATABASE_BUSY: the database refused for its own state, not the "
            + "request's (too many connections, out of memory, a lock or statement timeout, a deadlock, the connection "
            + "lost, no pooled connection free in time). A refusal before the commit rolled the transaction back; a "
            + "connection lost during the commit may have lost only its answer: re-read before writing again, or send a "
            + "create again with the same Idempotency-Key";

    /** What the {@code Retry-After} of a 503 {@code DATABASE_BUSY} means, for the API description. */
    public static final String DATABASE_BUSY_RETRY_AFTER = "Seconds to wait before sending the request again (1); "
            + "absent after a statement timeout, which may take as long again; a create sent again with its "
            + "Idempotency-Key is made once";

    /** {@code answer}, also saying the assignment revision the write saw ({@link #ASSIGNMENT_REVISION}). */
    public static <T> ResponseEntity<T> withAssignmentRevision(ResponseEntity<T> answer, long revision) {
        return ResponseEntity.status(answer.getStatusCode()).headers(answer.getHeaders())
                .header(ASSIGNMENT_REVISION, Long.toString(revision)).body(answer.getBody());
    }
}
