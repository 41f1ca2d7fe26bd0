package org.caseassignments.api.problem;

import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

/**
 * The headers Spring Security writes on every response it sees. Errors raised before its filters run
 * (the connector's 400s, the firewall's rejections) or on an error dispatch get the same ones here,
 * so no answer of this service goes without them.
 */
final class SecurityHeaders {

    private static final Map<String, String> HEADERS = Map.of(
            "X-Content-Type-Options", "nosniff",
            "X-Frame-Options", "DENY",
            "X-XSS-Protection", "0",
            "Cache-Control", "no-cache, no-store, max-age=0, must-revalidate",
            "Pragma", "no-cache",
            "Expires", "0");

    private SecurityHeaders() {
    }

    static void addMissing(HttpServletResponse response) {
        HEADERS.forEach((name, value) -> {
            if (!response.containsHeader(name)) {
                response.setHeader(name, value);
            }
        });
    }
}
