package org.caseassignments.api.problem;

import java.io.IOException;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page: whatever ends in {@code sendError} or an exception outside the handlers (a filter,
 * the container) is answered with the same problem document as an error in a handler, instead of
 * Spring Boot's default JSON. Written directly, not through content negotiation, so that an
 * unusable {@code Accept} cannot turn the error into an empty one. An exception is answered by
 * {@link UnhandledFailures}, as in a handler: 503 {@code DATABASE_BUSY} when the database refused for its own
 * state. A direct request for the page is a 404 like any unknown path.
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

    private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

    private final UnhandledFailures failures;

    ProblemErrorController(UnhandledFailures failures) {
        this.failures = failures;
    }

    @RequestMapping("${server.error.path:/error}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        if (!(status instanceof Integer code) || code < 400) {
            ProblemWriter.write(request, response, ProblemCode.NOT_FOUND, 404, "No resource at this path");
            return;
        }
        Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        if (failure instanceof InvalidParameterException) {
            ProblemWriter.write(request, response, ProblemCode.BAD_REQUEST, 400,
                    "The query string or form parameters are not validly percent-encoded");
            return;
        }
        if (failure instanceof Throwable unexpected && code == 500) {
            // an exception outside UnhandledFailureFilter's reach: answered as a handler's would be, 503 when the
            // database refused
            ProblemWriter.write(request, response, failures.answer(unexpected, request));
            return;
        }
        if (failure instanceof Throwable unexpected) {
            log.error("Unhandled failure on {} {}", request.getMethod(),
                    request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI), unexpected);
        }
        ProblemCode problem = ProblemCode.forStatus(code);
        ProblemWriter.write(request, response, problem, code, code >= 500
                ? UnhandledFailures.FAILED
                : problem.title() + " (" + code + ")");
    }
}
