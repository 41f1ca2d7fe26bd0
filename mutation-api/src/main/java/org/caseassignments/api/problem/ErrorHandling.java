package org.caseassignments.api.problem;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.requestid.RequestIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingPathVariableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure into a problem document with {@code type, title, status, detail, instance} and
 * a stable {@code code}, except a policy denial (403, empty body: nothing says which rule denied).
 * Unexpected failures are logged and answered 500 without internals: no SQL, no constraint names; the database
 * refusing for its own state (busy, a lock or statement timeout, a deadlock, the connection or the pool) is 503
 * {@code DATABASE_BUSY} with {@code Retry-After} ({@link DatabaseBusy}); both answered, logged and counted by
 * {@link UnhandledFailures}, as they are outside the handlers.
 */
@RestControllerAdvice
class ErrorHandling extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ErrorHandling.class);

    private final UnhandledFailures failures;

    ErrorHandling(UnhandledFailures failures) {
        this.failures = failures;
    }

    @ExceptionHandler(PolicyDenied.class)
    ResponseEntity<Void> denied() {
        return ResponseEntity.status(HttpStatus.FORBIDDEN).build();
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<Object> problem(ApiProblem problem, HttpServletRequest request) {
        ResponseEntity<Object> response = respond(problem.code(), problem.getMessage(), problem.errors(),
                request.getRequestURI());
        if (problem.properties().isEmpty() && problem.retryAfter() == null) {
            return response;
        }
        ProblemDetail body = (ProblemDetail) response.getBody();
        problem.properties().forEach(body::setProperty);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(response.getStatusCode());
        if (problem.retryAfter() != null) {
            answer.header(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, problem.retryAfter().toSeconds())));
        }
        return answer.body(body);
    }

    /** Tomcat refuses to decode a query string or form body ({@code ?x=%}) only when it is first read. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> undecodableParameters(HttpServletRequest request) {
        return problem(ApiProblem.notPercentEncoded(), request);
    }

    /** Whatever no other handler answers: 503 when the database refused for its own state, else 500. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
        return problem(failures.answer(e, request), request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        String path = path(request);
        if (causedBy(e, BodyTooLarge.class) != null) {
            return respond(ProblemCode.PAYLOAD_TOO_LARGE, "The request body is larger than this service accepts ("
                    + causedBy(e, BodyTooLarge.class).getMessage() + ")", List.of(), path);
        }
        UnrecognizedPropertyException unknown = causedBy(e, UnrecognizedPropertyException.class);
        if (unknown != null) {
            return invalid(new FieldError(pathOf(unknown), "unknown field; this resource has no such property"), path);
        }
        InvalidFormatException format = causedBy(e, InvalidFormatException.class);
        if (format != null) {
            return invalid(new FieldError(pathOf(format), "cannot be read as " + typeName(format.getTargetType())
                    + (format.getTargetType().isEnum() ? " (one of " + List.of(format.getTargetType().getEnumConstants()) + ")" : "")),
                    path);
        }
        InputCoercionException range = causedBy(e, InputCoercionException.class);
        if (range != null && !range.getPath().isEmpty()) {
            return invalid(new FieldError(pathOf(range), "is out of range for " + typeName(range.getTargetType())
                    + (range.getTargetType() == Integer.class || range.getTargetType() == int.class
                    ? " (" + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + ")" : "")), path);
        }
        MismatchedInputException mismatch = causedBy(e, MismatchedInputException.class);
        if (mismatch != null && !mismatch.getPath().isEmpty()) {
            return invalid(new FieldError(pathOf(mismatch), "has the wrong type; expected " + typeName(mismatch.getTargetType())),
                    path);
        }
        String detail = causedBy(e, StreamReadException.class) != null ? "The request body is not valid JSON: send one JSON object"
                : causedBy(e, JacksonException.class) != null ? "The request body must be one JSON object"
                : "The request body is missing or unreadable: send one JSON object";
        return respond(ProblemCode.MALFORMED_REQUEST, detail, List.of(), path);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        return respond(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend",
                fieldErrors(e.getBindingResult()), path(request));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
                                                                            HttpHeaders headers, HttpStatusCode status,
                                                                            WebRequest request) {
        List<FieldError> errors = new ArrayList<>();
        e.getParameterValidationResults().forEach(result -> result.getResolvableErrors().forEach(error ->
                errors.add(new FieldError(snakeCase(result.getMethodParameter().getParameterName()),
                        error.getDefaultMessage()))));
        return respond(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend", errors,
                path(request));
    }

    /** A path variable that converts to nothing, such as {@code /placements/%20}: invalid like any other bad UUID. */
    @Override
    protected ResponseEntity<Object> handleMissingPathVariable(MissingPathVariableException e, HttpHeaders headers,
                                                               HttpStatusCode status, WebRequest request) {
        if (!e.isMissingAfterConversion()) {
            return super.handleMissingPathVariable(e, headers, status, request);
        }
        return invalid(new FieldError(snakeCase(e.getVariableName()), "is blank; expected "
                + typeName(e.getParameter().getParameterType())), path(request));
    }

    /**
     * SQLSTATE class 23 other than what a repository answered itself (a duplicate license number):
     * a conflict with the stored data, answered without the constraint, the table or the SQL (ADR-035),
     * which only the log shows.
     */
    @ExceptionHandler(DataIntegrityViolationException.class)
    ResponseEntity<Object> integrityViolation(DataIntegrityViolationException e, HttpServletRequest request) {
        if (!sqlStateClass(e).equals("23")) {
            return unexpected(e, request);
        }
        // the first line names the constraint for the operator; the rest would copy the row's values into the log
        log.warn("Integrity violation on {} {}: {}", request.getMethod(), request.getRequestURI(),
                String.valueOf(e.getMostSpecificCause().getMessage()).lines().findFirst().orElse(""));
        return respond(ProblemCode.INTEGRITY_VIOLATION, "The change conflicts with data the service holds and was "
                + "not made; re-read the resources involved and retry with values they allow", List.of(),
                request.getRequestURI());
    }

    private static String sqlStateClass(Throwable e) {
        SQLException sql = causedBy(e, SQLException.class);
        return sql == null || sql.getSQLState() == null || sql.getSQLState().length() < 2 ? ""
                : sql.getSQLState().substring(0, 2);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String name = e instanceof MethodArgumentTypeMismatchException mismatch ? mismatch.getName() : e.getPropertyName();
        return invalid(new FieldError(snakeCase(name), "cannot be read as "
                + (e.getRequiredType() == null ? "the expected type" : typeName(e.getRequiredType()))), path(request));
    }

    /** Everything else the framework raises (404 for unknown paths, 405, 415, …) gets the same shape. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ProblemCode code = ProblemCode.forStatus(statusCode.value());
        String detail = body instanceof ProblemDetail problem && problem.getDetail() != null ? problem.getDetail()
                : code.title();
        ResponseEntity<Object> response = respond(code, detail, List.of(), path(request));
        return ResponseEntity.status(statusCode).headers(headers).body(response.getBody());
    }

    private ResponseEntity<Object> invalid(FieldError error, String path) {
        return respond(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend",
                List.of(error), path);
    }

    static ResponseEntity<Object> respond(ProblemCode code, String detail, List<FieldError> errors, String path) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(code.status(), detail);
        problem.setType(code.type());
        problem.setTitle(code.title());
        String instance = ProblemWriter.instance(path);
        if (instance != null) {
            problem.setInstance(java.net.URI.create(instance));
        }
        problem.setProperty("code", code.name());
        problem.setProperty("request_id", org.slf4j.MDC.get(RequestIds.MDC_KEY));
        RequestIds.traceMembers().forEach(problem::setProperty);
        if (!errors.isEmpty()) {
            problem.setProperty("errors", errors.stream()
                    .map(error -> Map.of("field", error.field(), "message", error.message())).toList());
        }
        return ResponseEntity.status(code.status()).body(problem);
    }

    private static List<FieldError> fieldErrors(BindingResult result) {
        List<FieldError> errors = new ArrayList<>();
        result.getFieldErrors().forEach(error -> errors.add(new FieldError(snakeCase(error.getField()),
                error.getDefaultMessage())));
        result.getGlobalErrors().forEach(error -> errors.add(new FieldError("", error.getDefaultMessage())));
        return errors;
    }

    private static String pathOf(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == null) {
            return "the expected type";
        }
        return switch (type.getSimpleName()) {
            case "UUID" -> "a UUID";
            case "LocalDate" -> "a date (YYYY-MM-DD)";
            case "Integer", "int", "Long", "long" -> "an integer";
            case "Boolean", "boolean" -> "a boolean";
            case "String" -> "a string";
            default -> type.isEnum() ? "a status" : "a " + type.getSimpleName();
        };
    }

    private static String snakeCase(String name) {
        // the same translation as the JSON mapper's SNAKE_CASE strategy, for names bean validation reports
        return name == null ? "" : name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    private static String path(WebRequest request) {
        return request instanceof NativeWebRequest nativeRequest
                && nativeRequest.getNativeRequest() instanceof HttpServletRequest servlet
                ? servlet.getRequestURI() : "";
    }

    static <T extends Throwable> T causedBy(Throwable e, Class<T> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
