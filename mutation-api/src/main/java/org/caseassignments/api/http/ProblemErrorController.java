package org.caseassignments.api.http;

import java.util.List;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page: whatever ends in {@code sendError} (a filter, the container, a rejected request)
 * is answered with the same problem document as an error in a handler, instead of Spring Boot's
 * default JSON. A direct request for the page is a 404 like any unknown path.
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<Object> error(HttpServletRequest request, HttpServletResponse response) {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = uri instanceof String original ? original : request.getRequestURI();
        SecurityHeaders.addMissing(response);
        if (!(status instanceof Integer code) || code < 400) {
            return ErrorHandling.respond(ProblemCode.NOT_FOUND, "No resource at " + path, List.of(), path);
        }
        if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure) {
            log.error("Unhandled failure on {} {}", request.getMethod(), path, failure);
        }
        ProblemCode problem = ProblemCode.forStatus(code);
        String detail = code >= 500
                ? "The request failed on the server; retry later, and report the request id if it persists"
                : problem.title() + " (" + code + ")";
        ResponseEntity<Object> answer = ErrorHandling.respond(problem, detail, List.of(), path);
        return ResponseEntity.status(code).body(answer.getBody());
    }
}
