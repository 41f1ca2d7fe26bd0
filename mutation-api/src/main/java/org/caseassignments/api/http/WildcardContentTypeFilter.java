package org.caseassignments.api.http;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.problem.ProblemWriter;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers 415 to a body declared with a wildcard media type ({@code Content-Type: *}{@code /*}): it
 * names no format, and Spring MVC fails on it with an assertion (a 500) rather than a 415.
 */
final class WildcardContentTypeFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isWildcard(request.getContentType())) {
            ProblemWriter.write(request, response, ProblemCode.UNSUPPORTED_MEDIA_TYPE, 415,
                    "Content-Type " + request.getContentType() + " names no format; send application/json");
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isWildcard(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return type.isWildcardType() || type.isWildcardSubtype();
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }
}
