package org.caseassignments.api.problem;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.requestid.RequestIds;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem document straight to the servlet response, for the answers given outside Spring
 * MVC: the connector's 400s, the security firewall's rejections, the refusals of waits answered by filters. Same
 * members as {@link ErrorHandling}'s documents, same headers (framed by {@code Content-Length}, where the handlers'
 * are chunked).
 */
public final class ProblemWriter {

    public static final String PROBLEM_JSON = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemWriter() {
    }

    public static void write(HttpServletRequest request, HttpServletResponse response, ProblemCode code, int status,
                      String detail) throws IOException {
        write(request, response, code, status, detail, Map.of());
    }

    /** An {@link ApiProblem} raised outside Spring MVC (a filter), with its errors, members and {@code Retry-After}. */
    public static void write(HttpServletRequest request, HttpServletResponse response, ApiProblem problem)
            throws IOException {
        Map<String, Object> members = new LinkedHashMap<>();
        if (!problem.errors().isEmpty()) {
            members.put("errors", problem.errors().stream()
                    .map(error -> Map.of("field", error.field(), "message", error.message())).toList());
        }
        members.putAll(problem.properties());
        if (problem.retryAfter() != null) {
            response.setHeader("Retry-After", String.valueOf(Math.max(1, problem.retryAfter().toSeconds())));
        }
        write(request, response, problem.code(), problem.code().status().value(), problem.getMessage(), members);
    }

    private static void write(HttpServletRequest request, HttpServletResponse response, ProblemCode code, int status,
                              String detail, Map<String, Object> members) throws IOException {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", code.type().toString());
        problem.put("title", code.title());
        problem.put("status", status);
        problem.put("detail", detail);
        Object original = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String instance = instance(original instanceof String uri ? uri : request.getRequestURI());
        if (instance != null) {
            problem.put("instance", instance);
        }
        problem.put("code", code.name());
        problem.put("request_id", RequestIds.of(request, response));
        problem.putAll(RequestIds.traceMembers());
        problem.putAll(members);
        byte[] body = JSON.writeValueAsBytes(problem);
        response.resetBuffer();
        response.setStatus(status);
        SecurityHeaders.addMissing(response);
        // as the handlers' problem documents: JSON is UTF-8 (RFC 8259), and the media type has no charset parameter,
        // not even one set on the response before (a media type without one keeps it): cleared first
        response.setCharacterEncoding((String) null);
        response.setContentType(PROBLEM_JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }

    /** The request path when it is a valid URI reference (a rejected one may not be), otherwise none. */
    static String instance(String path) {
        if (path == null || path.isEmpty() || path.length() > 2048) {
            return null;
        }
        try {
            return URI.create(path).toString();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
