package org.caseassignments.api.requestid;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Assigns the {@link RequestIds request id} before anything else runs (security included), and keeps
 * it in the MDC for the request and for its error dispatch; the caller's {@code sub} and the case id,
 * which later steps add to the MDC, leave it with the request.
 */
final class RequestIdFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String previous = MDC.get(RequestIds.MDC_KEY);
        MDC.put(RequestIds.MDC_KEY, RequestIds.of(request, response));
        try {
            chain.doFilter(request, response);
        } finally {
            if (previous == null) {
                MDC.remove(RequestIds.MDC_KEY);
                MDC.remove(RequestIds.SUB_MDC_KEY);
                MDC.remove(RequestIds.CASE_ID_MDC_KEY);
                MDC.remove(RequestIds.ASSIGNMENT_TRACE_ID_MDC_KEY);
            } else {
                MDC.put(RequestIds.MDC_KEY, previous);
            }
        }
    }

    /** The error dispatch renders a problem document that logs and shows the same id. */
    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    /** So does the dispatch that answers a request which waited for the projection (min_revision). */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }
}
