package org.caseassignments.api.assignment;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemWriter;
import org.caseassignments.api.problem.UnhandledFailures;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.CaseIds;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * Begins a plain waited read, {@code GET /cases/{caseId}/assignment?min_revision=N&wait=D}, before Spring MVC: reads
 * the case, authorizes the caller and admits the wait ({@link WaitedReads#begin}), and answers a refusal itself — 403
 * for a case the caller may not read, 429 {@code TOO_MANY_WAITERS} past the caps, 409 {@code PROJECTION_BEHIND} past
 * the unknown-case allowance — with the same status, headers and problem document the handler would, as a request
 * of the same operation in the metrics and traces. A flood of waited reads is mostly refusals (decision 39): each
 * then costs the security filters and one read, not the handler's dispatch as well. What was begun and not refused
 * goes on to the handler, which takes it over; anything else about the request (another parameter, a malformed or
 * zero wait, an {@code Accept} the problem document may not answer) is the handler's alone, as without this filter.
 */
final class WaitedReadFilter extends OncePerRequestFilter {

    /** The operation's path, as the handler mapping names it to the request's observation. */
    static final String PATH_PATTERN = "/cases/{caseId}/assignment";
    private static final Pattern PATH = Pattern.compile("^/cases/([0-9a-fA-F-]{36})/assignment$");
    private static final Pattern REVISION = Pattern.compile("\\d{1,18}");
    private static final Set<String> PARAMETERS = Set.of("min_revision", "wait");

    private final WaitedReads waitedReads;
    private final Duration maxWait;
    private final UnhandledFailures failures;

    WaitedReadFilter(WaitedReads waitedReads, Duration maxWait, UnhandledFailures failures) {
        this.waitedReads = waitedReads;
        this.maxWait = maxWait;
        this.failures = failures;
    }

    /** Only a GET of a case's assignment naming {@code min_revision} and {@code wait}, each once, and nothing else. */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (!request.getMethod().equals("GET") || !PATH.matcher(request.getRequestURI()).matches()) {
            return true;
        }
        // a query string that does not decode fails here (InvalidParameterException), as the first reading of the
        // parameters does: uncaught, so that it is the error page's 400 as without this filter, not a later reading's
        // answer without the parameter
        Map<String, String[]> parameters = request.getParameterMap();
        return !parameters.keySet().equals(PARAMETERS)
                || parameters.values().stream().anyMatch(values -> values.length != 1);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Matcher path = PATH.matcher(request.getRequestURI());
        String minRevision = request.getParameter("min_revision");
        UUID caseId = path.matches() ? CaseIds.parse(path.group(1)) : null;
        Duration patience = patience(request.getParameter("wait"));
        Optional<Caller> caller = Caller.authenticated();
        if (caseId == null || !REVISION.matcher(minRevision).matches() || patience == null || patience.isZero()
                || caller.isEmpty() || !answersProblems(request)) {
            chain.doFilter(request, response);
            return;
        }
        WaitedReads.Begun begun;
        try {
            begun = waitedReads.begin(caller.get(), caseId, Long.parseLong(minRevision), patience);
        } catch (PolicyDenied denied) {
            asTheOperation(request);
            response.setStatus(HttpStatus.FORBIDDEN.value()); // empty, as every denial (ErrorHandling)
            return;
        } catch (RuntimeException e) {
            asTheOperation(request);
            ProblemWriter.write(request, response, e instanceof ApiProblem problem ? problem : failures.answer(e, request));
            return;
        }
        WaitedReads.handOn(request, begun);
        try {
            chain.doFilter(request, response);
        } finally {
            WaitedReads.releaseNotTakenOver(request);
        }
    }

    /** The wait asked for, or null when the handler must judge it (malformed, out of bounds). */
    private Duration patience(String wait) {
        try {
            return ProjectionBehind.waitOf("wait", wait, maxWait);
        } catch (ApiProblem malformed) {
            return null;
        }
    }

    /**
     * Whether the problem document the handler would answer is {@code application/problem+json}: no {@code Accept}, or
     * only ones that take anything (each header, however many). Any other is left to the handler's content negotiation.
     */
    private static boolean answersProblems(HttpServletRequest request) {
        return Collections.list(request.getHeaders("Accept")).stream()
                .allMatch(accept -> accept.isBlank() || accept.strip().equals("*/*"));
    }

    /** Named in the request's metrics and trace as the handler mapping names it. */
    private static void asTheOperation(HttpServletRequest request) {
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(context -> context.setPathPattern(PATH_PATTERN));
    }
}
