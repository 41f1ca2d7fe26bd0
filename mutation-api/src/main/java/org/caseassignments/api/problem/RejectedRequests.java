package org.caseassignments.api.problem;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * Answers what Spring Security's firewall refuses before any other filter runs ({@code ..;} or an
 * encoded CR/LF in the path, a method outside the standard set) with a problem document, the
 * security headers and the request id. A method the firewall refuses is a 405 whose {@code Allow}
 * names what the path serves (404 when nothing is served there); anything else is a 400.
 */
final class RejectedRequests implements RequestRejectedHandler {

    private static final Logger log = LoggerFactory.getLogger(RejectedRequests.class);
    private static final Set<String> STANDARD_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final AllowedMethods allowed;

    RejectedRequests(AllowedMethods allowed) {
        this.allowed = allowed;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        log.debug("Rejected {}: {}", request.getMethod(), rejected.getMessage());
        if (!STANDARD_METHODS.contains(request.getMethod())) {
            Set<String> methods = allowedAt(request);
            if (methods.isEmpty()) {
                ProblemWriter.write(request, response, ProblemCode.NOT_FOUND, 404, "No resource at this path");
                return;
            }
            response.setHeader("Allow", String.join(", ", methods));
            ProblemWriter.write(request, response, ProblemCode.METHOD_NOT_ALLOWED, 405,
                    "This path does not serve that method; the Allow header lists the ones it does");
            return;
        }
        ProblemWriter.write(request, response, ProblemCode.BAD_REQUEST, 400, "The request path or headers contain "
                + "something this service refuses (a '..;' or ';' segment, an encoded '/', '%', '.' or line break, "
                + "or a character HTTP does not allow)");
    }

    private Set<String> allowedAt(HttpServletRequest request) {
        try {
            return allowed.at(request);
        } catch (RuntimeException e) {
            // a path the firewall also dislikes may not parse: nothing is served there
            return Set.of();
        }
    }
}
