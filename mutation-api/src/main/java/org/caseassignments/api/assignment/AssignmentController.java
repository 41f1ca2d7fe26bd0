package org.caseassignments.api.assignment;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.caseassignments.api.http.ListPaging;
import org.caseassignments.api.http.OpaqueCursor;
import org.caseassignments.api.http.Responses;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.problem.ProblemWriter;
import org.caseassignments.api.security.Caller;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * The projection row of a case, for callers of the case's jurisdiction whose ruleset lets them read
 * {@code case_assignment}; its history, for callers of the jurisdiction in force at each entry (decision 40). A case
 * that is not known yet has no jurisdiction, so it is denied like any other record the caller may not read. A read of
 * the current row is authorized against it; a read of the history against the current row when the case is of the
 * caller's jurisdiction, else against the newest entry of the caller's jurisdiction, if any.
 */
@RestController
class AssignmentController {

    /** A case's assignment; {@code assignment_revision} is the upstream revision the projection has reached. */
    record AssignmentResponse(UUID caseId, String assignedWorkerSub, String supervisorSub, long assignmentRevision) {
    }

    /** One revision of a case's assignment: when the case service committed it, and when the projection saw it. */
    record HistoryEntryResponse(UUID caseId, String assignedWorkerSub, String supervisorSub, long assignmentRevision,
                                Instant occurredAt, Instant recordedAt) {

        static HistoryEntryResponse of(AssignmentHistory.Entry entry) {
            return new HistoryEntryResponse(entry.caseId(), entry.assignedWorkerSub(), entry.supervisorSub(),
                    entry.revision(), entry.occurredAt(), entry.appliedAt());
        }
    }

    /** One page of a case's history, newest first; {@code next_cursor} is null on the last page. */
    record HistoryPage(List<HistoryEntryResponse> items, String nextCursor) {
    }

    private static final int DEFAULT_LIMIT = 100;
    /** Time to read and build a waited read's answer once its wait has ended, before its async timeout. */
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(5);
    /** The times PostgreSQL's timestamptz holds, and more: a time outside them is a 400, not a database error. */
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private final CaseAssignments assignments;
    private final AssignmentHistory history;
    private final WaitedReads waitedReads;
    private final AssignmentProperties properties;
    private final PolicyEngine policy;
    private final OpaqueCursor cursors;

    AssignmentController(CaseAssignments assignments, AssignmentHistory history, WaitedReads waitedReads,
                         AssignmentProperties properties, PolicyEngine policy, OpaqueCursor cursors) {
        this.cursors = cursors;
        this.assignments = assignments;
        this.history = history;
        this.waitedReads = waitedReads;
        this.properties = properties;
        this.policy = policy;
    }

    @Operation(summary = "A case's assignment: now, once the projection reached a revision, or as it was")
    @ApiResponse(responseCode = "200", description = "The assignment now (AssignmentResponse), or in force at as_of or "
            + "as_of_revision (HistoryEntryResponse)", content = @Content(mediaType = "application/json",
            schema = @Schema(oneOf = {AssignmentResponse.class, HistoryEntryResponse.class})))
    @ApiResponse(responseCode = "409", description = "PROJECTION_BEHIND: the projection had not reached min_revision "
            + "when the wait ended (current_revision, min_revision; Retry-After)", content = @Content(
            mediaType = ProblemWriter.PROBLEM_JSON, schema = @Schema(ref = "#/components/schemas/Problem")),
            headers = @Header(name = HttpHeaders.RETRY_AFTER, description = Responses.PROJECTION_BEHIND_RETRY_AFTER,
                    schema = @Schema(type = "integer", minimum = "1")))
    @ApiResponse(responseCode = "429", description = Responses.TOO_MANY_WAITERS + " (Retry-After)", content = @Content(
            mediaType = ProblemWriter.PROBLEM_JSON, schema = @Schema(ref = "#/components/schemas/Problem")),
            headers = @Header(name = HttpHeaders.RETRY_AFTER, description = Responses.TOO_MANY_WAITERS_RETRY_AFTER,
                    schema = @Schema(type = "integer", minimum = "1")))
    @GetMapping("/cases/{caseId}/assignment")
    DeferredResult<ResponseEntity<Object>> get(
            Caller caller, HttpServletRequest request, @PathVariable UUID caseId,
            @Parameter(description = "Answer once the projection holds the case at this assignment revision or above "
                    + "(the revision the case service returned with its write): a whole number, 0 or more. Authorized "
                    + "first: a case the caller may not read is 403 at once. Not reached within wait: 409 "
                    + "PROJECTION_BEHIND. A case the projection does not know yet is behind, and waited for only "
                    + "within api.assignment.unknown-case-waiters-per-subject. Past the waiters' caps: 429 "
                    + "TOO_MANY_WAITERS",
                    schema = @Schema(type = "integer", format = "int64", minimum = "0"))
            @RequestParam(name = "min_revision", required = false) Long minRevision,
            @Parameter(description = "How long to wait for min_revision: an ISO-8601 duration (PT2S, PT0.5S) from PT0S "
                    + "to api.assignment.max-wait, here ${api.assignment.max-wait}; default PT0S, not waiting. Only "
                    + "with min_revision", schema = @Schema(type = "string", defaultValue = "PT0S", example = "PT2S"))
            @RequestParam(name = "wait", required = false) String wait,
            @Parameter(description = "The assignment in force at this time: the highest revision whose occurred_at is "
                    + "at or before it. An RFC 3339 time with a zone (2026-03-01T12:00:00Z), years 0001 to 9999; 404 "
                    + "when none was. Not with as_of_revision, min_revision or wait",
                    schema = @Schema(type = "string", format = "date-time", example = "2026-03-01T12:00:00Z"))
            @RequestParam(name = "as_of", required = false) String asOf,
            @Parameter(description = "The assignment in force at this revision: it, or the highest below it the "
                    + "history holds. A whole number, 0 or more; 404 when none was. Not with as_of, min_revision or "
                    + "wait", schema = @Schema(type = "integer", format = "int64", minimum = "0"))
            @RequestParam(name = "as_of_revision", required = false) Long asOfRevision) {
        if (asOf != null && asOfRevision != null) {
            throw ApiProblem.invalidField("as_of_revision", "give as_of or as_of_revision, not both");
        }
        boolean past = asOf != null || asOfRevision != null;
        if (past && (minRevision != null || wait != null)) {
            throw ApiProblem.invalidField(minRevision != null ? "min_revision" : "wait",
                    "waits for the current assignment only; not with as_of or as_of_revision");
        }
        if (asOf != null) {
            Instant time = time("as_of", asOf);
            return answered(inForce(caller, caseId, () -> history.asOf(caseId, time), "at " + time));
        }
        if (asOfRevision != null) {
            long revision = revision("as_of_revision", asOfRevision);
            return answered(inForce(caller, caseId, () -> history.asOfRevision(caseId, revision),
                    "at revision " + revision));
        }
        Duration patience = ProjectionBehind.waitOf("wait", wait, properties.maxWait());
        if (minRevision == null) {
            if (wait != null) {
                throw ApiProblem.invalidField("wait", "waits for min_revision; give min_revision too");
            }
            return answered(current(caller, caseId));
        }
        long wanted = revision("min_revision", minRevision);
        // authorized before any wait: a case the caller may not read is 403 at once, not after the wait (decision 39)
        WaitedReads.Begun begun = waitedReads.begunOrBegin(request, caller, caseId, wanted, patience);
        if (begun.reached()) {
            return answered(response(begun.before()));
        }
        if (begun.admitted() == null) {
            throw behind(caller, begun.before(), wanted, patience);
        }
        return waited(caller, begun, wanted, patience);
    }

    private static DeferredResult<ResponseEntity<Object>> answered(Object body) {
        DeferredResult<ResponseEntity<Object>> answer = new DeferredResult<>();
        answer.setResult(ResponseEntity.ok(body));
        return answer;
    }

    /**
     * The answer of a read that waits. Its async timeout is its own wait and a margin, not the container's
     * ({@code spring.mvc.async.request-timeout}, 30 s in Tomcat, shorter than a wait may be), so it always ends
     * as the wait's answer; should even the margin pass, it is 409 from what was read before the wait.
     */
    private DeferredResult<ResponseEntity<Object>> waited(Caller caller, WaitedReads.Begun begun, long wanted,
                                                          Duration patience) {
        ProjectedAssignment before = begun.before();
        ProjectionWaits.Wait wait = begun.admitted();
        DeferredResult<ResponseEntity<Object>> answer = new DeferredResult<>(patience.plus(ANSWER_MARGIN).toMillis());
        answer.onTimeout(() -> {
            try {
                answer.setErrorResult(behind(caller, before, wanted, patience));
            } catch (RuntimeException denied) {
                answer.setErrorResult(denied);
            }
        });
        // a client that went away, or an answer given, ends the wait and its place under the caps
        answer.onError(error -> wait.release().run());
        answer.onCompletion(wait.release());
        wait.answer().thenApply(reached -> {
            // the read that woke every waiter of the case answers this one too; only a wait that ended reads again
            ProjectedAssignment read = reached.orElseGet(() -> assignments.read(before.caseId()));
            if (read.revision() < wanted) {
                throw behind(caller, read, wanted, patience);
            }
            return ResponseEntity.<Object>ok(authorized(caller, read));
        }).whenComplete((reply, error) -> {
            if (error == null) {
                answer.setResult(reply);
            } else {
                answer.setErrorResult(error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error);
            }
        });
        return answer;
    }

    @Operation(summary = "Every revision of a case's assignment the projection has seen while the case was of the "
            + "caller's jurisdiction, newest first")
    @GetMapping("/cases/{caseId}/assignment/history")
    HistoryPage history(Caller caller, @PathVariable UUID caseId,
                        @Parameter(description = "The next_cursor of the page before, as given; none for the newest "
                                + "page") @RequestParam(name = "cursor", required = false) String cursor,
                        @Parameter(description = "Entries per page: 1 to api.assignment.history-max-page-size, here "
                                + "${api.assignment.history-max-page-size}; default 100 or that maximum if lower",
                                schema = @Schema(type = "integer", format = "int32", minimum = "1"))
                        @RequestParam(name = "limit", required = false) Integer limit) {
        int pageSize = limit == null ? Math.min(DEFAULT_LIMIT, properties.historyMaxPageSize()) : limit;
        if (pageSize < 1 || pageSize > properties.historyMaxPageSize()) {
            throw ApiProblem.invalidField("limit", "must be between 1 and " + properties.historyMaxPageSize());
        }
        String list = OpaqueCursor.scope("history", caseId, caller.jurisdiction());
        long before = cursor == null ? Long.MAX_VALUE : decodeCursor(list, cursor);
        authorizeHistory(caller, caseId);
        List<AssignmentHistory.Entry> entries = history.page(caseId, caller.jurisdiction(), before, pageSize + 1);
        List<HistoryEntryResponse> items = entries.stream().limit(pageSize).map(HistoryEntryResponse::of).toList();
        String next = entries.size() > pageSize
                ? cursors.encode(list, items.get(items.size() - 1).assignmentRevision()) : null;
        return new HistoryPage(items, next);
    }

    /**
     * A read of the history: against the case's current row when it is of the caller's jurisdiction; else against
     * the newest entry of the caller's jurisdiction, so a jurisdiction the case left reads its own period; else
     * against the current row, which denies it as any read of a record of another jurisdiction.
     */
    private void authorizeHistory(Caller caller, UUID caseId) {
        ProjectedAssignment now = assignments.read(caseId);
        ResourceRef read = Objects.equals(now.jurisdiction(), caller.jurisdiction()) ? now.resource()
                : history.lastOf(caseId, caller.jurisdiction()).map(AssignmentHistory.Entry::resource)
                .orElseGet(now::resource);
        policy.require(caller, Action.READ, read);
    }

    private AssignmentResponse current(Caller caller, UUID caseId) {
        return authorized(caller, assignments.read(caseId));
    }

    private AssignmentResponse authorized(Caller caller, ProjectedAssignment assignment) {
        policy.require(caller, Action.READ, assignment.resource());
        return response(assignment);
    }

    /** The answer of a read the policy has allowed. */
    private static AssignmentResponse response(ProjectedAssignment assignment) {
        return new AssignmentResponse(assignment.caseId(), assignment.pair().assignedWorkerSub(),
                assignment.pair().supervisorSub(), assignment.revision());
    }

    /**
     * The entry in force, for a caller who may read the case's history; 404 when none was, or when the one in force
     * was of another jurisdiction: the same answer, so it says nothing of entries the caller may not read.
     */
    private HistoryEntryResponse inForce(Caller caller, UUID caseId, Supplier<Optional<AssignmentHistory.Entry>> entry,
                                         String when) {
        authorizeHistory(caller, caseId);
        return entry.get().filter(found -> Objects.equals(found.jurisdiction(), caller.jurisdiction()))
                .map(HistoryEntryResponse::of)
                .orElseThrow(() -> new ApiProblem(ProblemCode.NOT_FOUND, "No assignment of case " + caseId
                        + " in force " + when + " is in the history this caller may read"));
    }

    /**
     * Not reached in time: the problem to answer. A case the caller may read answers 409 with the revision it is at; one the projection does
     * not know yet also 409 (it is behind, not foreign); one of another jurisdiction is a 403 like any read of it.
     */
    private ProjectionBehind behind(Caller caller, ProjectedAssignment read, long wanted, Duration waited) {
        if (read.known()) {
            policy.require(caller, Action.READ, read.resource());
        }
        return new ProjectionBehind(read.caseId(), read.known() ? read.revision() : null, wanted, waited);
    }

    private static long revision(String name, long value) {
        if (value < 0) {
            throw ApiProblem.invalidField(name, "must be 0 or more");
        }
        return value;
    }

    private static Instant time(String name, String text) {
        Instant time;
        try {
            time = Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalidField(name, "must be an RFC 3339 time with a zone, e.g. 2026-03-01T12:00:00Z");
        }
        if (time.isBefore(EARLIEST) || time.isAfter(LATEST)) {
            throw ApiProblem.invalidField(name, "must be between " + EARLIEST + " and " + LATEST);
        }
        return time;
    }

    /** The revision a history cursor of {@code list} starts below. */
    private long decodeCursor(String list, String cursor) {
        long revision = cursors.decode(list, cursor, 1).map(fields -> {
            try {
                return Long.parseLong(fields.get(0));
            } catch (NumberFormatException e) {
                return -1L;
            }
        }).orElse(-1L);
        if (revision < 0) {
            throw ListPaging.notHandedOut();
        }
        return revision;
    }
}
