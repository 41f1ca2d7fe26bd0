package org.caseassignments.api.problem;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The outermost answer to a failure a filter lets through: every filter inside it (security, the request's wait for
 * the projection, any other) is answered here as a handler meeting the same failure would be, through
 * {@link UnhandledFailures} — 503 {@code DATABASE_BUSY} when the database refused for its own state, logged once at
 * WARN, else 500 — so that the container never logs it nor makes its own error page of it. Malformed parameters
 * are the client's fault, not a failure: they go on to the error page's 400. A response already
 * committed cannot be answered again: the failure is then only logged, once.
 */
final class UnhandledFailureFilter extends OncePerRequestFilter {

    private final UnhandledFailures failures;

    UnhandledFailureFilter(UnhandledFailures failures) {
        this.failures = failures;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (InvalidParameterException e) {
            throw e; // the client's malformed parameters: the error page answers 400, as ever
        } catch (RuntimeException e) {
            ApiProblem answer = failures.answer(e, request);
            if (!response.isCommitted()) {
                ProblemWriter.write(request, response, answer);
            }
        }
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }
}
