package org.caseassignments.api.assignment;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemWriter;
import org.caseassignments.api.problem.UnhandledFailures;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.CaseIds;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Min-Assignment-Revision: N} on a write of a case-scoped record: the write is held, without a thread
 * or a connection, until the projection of the record's case has reached revision N, then handled as if it had
 * just arrived (authorized on what it then reads); if N is not reached within the wait ({@code Prefer: wait=S},
 * RFC 7240, at most {@code api.assignment.max-wait}), it is answered 409 {@code PROJECTION_BEHIND} with nothing
 * written. A malformed {@code Prefer: wait} is 400 on every write, with the header or without it (decision 32).
 *
 * <p>The header is judged only after authorization (decision 39). The write itself cannot be authorized before
 * the wait — letting it become allowed is what the wait is for (the new assignee waiting for its reassignment) — so
 * the policy is asked what a waited read is asked: may the caller read the case's assignment. A caller who may not,
 * or a record that does not exist or is deleted ({@link HeldWrites}), goes straight to the handler, which answers
 * its 403 or 404 as without the header. A 409 names the case and its revision only to a caller who may read the
 * record it writes (for a create, the case's assignment); to others it names neither. A held write counts under
 * the waiters' caps (429 {@code TOO_MANY_WAITERS}), and a case the projection does not know yet is waited for only
 * within the caller's allowance.
 *
 * <p>This filter reads the database outside the handlers, before the wait and again after it: a read that fails is
 * answered as a handler meeting the failure would answer it ({@link UnhandledFailures}: 503 {@code DATABASE_BUSY}
 * when the database refused for its own state, else 500), never passed to the container nor ended without a body,
 * and a wait it had registered is given back.
 */
final class ProjectionWaitFilter extends OncePerRequestFilter {

    static final String HEADER = "Min-Assignment-Revision";
    private static final Pattern CREATE_IN_CASE = Pattern.compile("^/cases/([^/]+)/([^/]+)$");
    private static final Pattern WRITE_OF_RECORD = Pattern.compile("^/([^/]+)/([^/]+)$");
    private static final String PREFER = "Prefer";
    /** A preference's name ends where its value or its parameters begin (RFC 7240 section 2). */
    private static final Pattern PREFERENCE_NAME = Pattern.compile("[=;]");
    private static final Pattern PREFER_WAIT = Pattern.compile("(?i)^\\s*wait\\s*=\\s*(\\d{1,9})\\s*$");

    /**
     * A write to hold: its case as the projection holds it now, and what the caller must be allowed to read for a 409
     * to name the case and its revision (the record for an update or delete, the case's assignment for a create).
     */
    /** What a write is about: its case's assignment, and the record it names ({@code ofRecord}) or a create's case. */
    private record Target(ProjectedAssignment assignment, ResourceRef named, boolean ofRecord) {
    }

    /** A write of a case-scoped resource as its path names it, the id not yet parsed: the case's for a create. */
    record Written(CaseScopedResource resource, String id, boolean create) {
    }

    private final CaseAssignments assignments;
    private final PolicyEngine policy;
    private final Map<CaseScopedResource, HeldWrites> held = new EnumMap<>(CaseScopedResource.class);
    private final ProjectionWaits waits;
    private final Duration maxWait;
    private final UnhandledFailures failures;

    ProjectionWaitFilter(CaseAssignments assignments, PolicyEngine policy, List<HeldWrites> held, ProjectionWaits waits,
                         Duration maxWait, UnhandledFailures failures) {
        this.failures = failures;
        this.assignments = assignments;
        this.policy = policy;
        held.forEach(writes -> this.held.put(writes.resource(), writes));
        if (this.held.size() != held.size() || held.size() != CaseScopedResource.values().length) {
            throw new IllegalStateException("Each case-scoped resource " + List.of(CaseScopedResource.values())
                    + " needs exactly one HeldWrites, or its writes cannot wait for the projection; given: "
                    + held.stream().map(HeldWrites::resource).toList());
        }
        this.waits = waits;
        this.maxWait = maxWait;
    }

    /** Reads pass; so does a write that names neither a revision nor any preference. */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return request.getMethod().equals("GET") || request.getMethod().equals("HEAD")
                || request.getHeader(HEADER) == null && request.getHeader(PREFER) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long minRevision;
        Duration wait;
        Target target;
        try {
            // A malformed wait is refused on every write, also one without the header: never silently ignored.
            wait = wait(Collections.list(request.getHeaders(PREFER)));
            if (request.getHeader(HEADER) == null) {
                target = null;
                minRevision = 0;
            } else {
                minRevision = minRevision(Collections.list(request.getHeaders(HEADER)));
                target = target(request.getRequestURI());
            }
        } catch (RuntimeException e) {
            ProblemWriter.write(request, response, problem(e, request));
            return;
        }
        Optional<Caller> caller = Caller.authenticated();
        if (target == null || caller.isEmpty() || target.assignment().revision() >= minRevision
                || target.assignment().known() && !policy.allows(caller.get(), Action.READ, target.assignment().resource())
                || !target.assignment().known() && target.ofRecord()) {
            // Nothing to wait for, or nothing to tell: no header, the record missing or deleted (404), the caller
            // unauthenticated (401), the revision reached, the case's assignment not the caller's to read (403), or
            // a record whose case the projection does not know, so that no one can be authorized to wait for it
            // nor be told its case: the handler answers as always.
            chain.doFilter(request, response);
            return;
        }
        ProjectionWaits.Wait held;
        try {
            if (wait.isZero()) {
                throw behind(caller.get(), target, minRevision, wait);
            }
            held = waits.await(target.assignment().caseId(), minRevision, wait,
                    WaiterAdmission.Holder.of(caller.get()), !target.assignment().known());
        } catch (RuntimeException e) {
            ProblemWriter.write(request, response, problem(e, request));
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(0);
        AtomicBoolean ended = new AtomicBoolean();
        async.addListener(releasing(held, ended));
        held.answer().whenComplete((reached, error) -> {
            if (ended.get()) {
                // the client went away, or the request ended otherwise: no read for no one, no write to a response
                // the container may already be reusing
                return;
            }
            if (reached != null && reached.isPresent()) {
                async.dispatch();
                return;
            }
            ApiProblem answer;
            try {
                Target now = target(request.getRequestURI());
                if (now != null && now.assignment().revision() >= minRevision) {
                    // reached between the wait's end and this read: handled as if it had just arrived
                    async.dispatch();
                    return;
                }
                answer = behind(caller.get(), now == null ? target : now, minRevision, wait);
            } catch (RuntimeException e) {
                // the read after the wait failed: the same answer as any request meeting that failure, never a 2xx
                answer = problem(e, request);
            }
            try {
                ProblemWriter.write(request, (HttpServletResponse) async.getResponse(), answer);
            } catch (IOException | RuntimeException e) {
                logger.warn("Could not answer a write whose projection wait ended: " + e.getMessage());
            }
            async.complete();
        });
    }

    /**
     * What a failure met here answers: a problem raised as one (a malformed header, the waiters' caps, 409), or what
     * a handler meeting the same failure would answer, 503 {@code DATABASE_BUSY} when the database refused to read
     * the record or its case.
     */
    private ApiProblem problem(RuntimeException failure, HttpServletRequest request) {
        return failure instanceof ApiProblem problem ? problem : failures.answer(failure, request);
    }

    /**
     * Gives the wait up when its client goes away, or the request ends in any other way, and marks the request
     * {@code ended} first, so that the wait's end reads and writes nothing for it.
     */
    private static AsyncListener releasing(ProjectionWaits.Wait held, AtomicBoolean ended) {
        return new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                ended.set(true);
                held.release().run();
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                ended.set(true);
                held.release().run();
            }

            @Override
            public void onError(AsyncEvent event) {
                ended.set(true);
                held.release().run();
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // the same request, held again: still one wait
            }
        };
    }

    /**
     * Not reached: 409, naming the case and its revision only to a caller who may read the record it writes (or, for
     * a create, the case's assignment); to anyone else, neither — the new assignee waiting for its reassignment, or a
     * caller who will never be allowed the write.
     */
    private ProjectionBehind behind(Caller caller, Target target, long minRevision, Duration waited) {
        ProjectedAssignment projected = target.assignment();
        if (!projected.known()) {
            return new ProjectionBehind(projected.caseId(), null, minRevision, waited);
        }
        return policy.allows(caller, Action.READ, target.named())
                ? new ProjectionBehind(projected.caseId(), projected.revision(), minRevision, waited)
                : ProjectionBehind.unnamed(minRevision, waited);
    }

    private long minRevision(List<String> values) {
        if (values.size() != 1) {
            throw ApiProblem.invalidField(HEADER, "give it once");
        }
        try {
            long revision = Long.parseLong(values.get(0).strip());
            if (revision >= 0) {
                return revision;
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw ApiProblem.invalidField(HEADER, "must be an assignment revision: a whole number, 0 or more");
    }

    /**
     * {@code Prefer: wait=S} (seconds, RFC 7240); 0 when no preference is named {@code wait}. Other preferences
     * ({@code respond-async}, {@code return=minimal}, {@code waitress=…}) are not this service's to judge: ignored.
     */
    private Duration wait(List<String> prefers) {
        Duration wait = null;
        for (String header : prefers) {
            for (String preference : header.split(",")) {
                if (!PREFERENCE_NAME.split(preference, 2)[0].strip().equalsIgnoreCase("wait")) {
                    continue;
                }
                Matcher matcher = PREFER_WAIT.matcher(preference);
                if (!matcher.matches() || wait != null) {
                    throw ApiProblem.invalidField(PREFER, "wait must be given once, as whole seconds (wait=5)");
                }
                wait = ProjectionBehind.bounded(PREFER, Duration.ofSeconds(Long.parseLong(matcher.group(1))), maxWait);
            }
        }
        return wait == null ? Duration.ZERO : wait;
    }

    /**
     * The write the path names, with what the policy is first asked; null when the path's id is not a UUID or names
     * no live record (the handler answers those).
     */
    private Target target(String path) {
        Written written = written(path).orElseThrow(() -> ApiProblem.invalidField(HEADER, "applies to writes of "
                + CaseScopedResource.inWords() + " only, which belong to a case"));
        UUID id = CaseIds.parse(written.id());
        if (id == null) {
            return null;
        }
        if (written.create()) {
            ProjectedAssignment assignment = assignments.read(id);
            return new Target(assignment, assignment.resource(), false);
        }
        return held.get(written.resource()).current(id)
                .map(r -> new Target(assignments.read(r.caseId()), r, true)).orElse(null);
    }

    /**
     * What a write's path names: a create in a case's collection ({@link CaseScopedResource#ofCase()}, {@code id}
     * the case's) or a write of one record ({@link CaseScopedResource#record()}); empty when it is no case-scoped
     * resource's. The id is as the path gives it, not yet parsed.
     */
    static Optional<Written> written(String path) {
        Matcher create = CREATE_IN_CASE.matcher(path);
        if (create.matches()) {
            Optional<CaseScopedResource> resource = CaseScopedResource.ofCollection(create.group(2));
            if (resource.isPresent()) {
                return Optional.of(new Written(resource.get(), create.group(1), true));
            }
        }
        Matcher write = WRITE_OF_RECORD.matcher(path);
        if (write.matches()) {
            return CaseScopedResource.ofCollection(write.group(1)).map(r -> new Written(r, write.group(2), false));
        }
        return Optional.empty();
    }
}
