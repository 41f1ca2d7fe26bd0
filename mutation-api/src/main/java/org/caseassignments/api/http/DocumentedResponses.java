package org.caseassignments.api.http;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.problem.ProblemWriter;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents what each operation really answers, derived from how it is mapped (the conventions every
 * handler follows): 201 with {@code Location} and {@code ETag} for a create, 204 for a delete, 200 with
 * {@code ETag} for a read or update of one resource and its 304 and 412 under {@code If-None-Match} /
 * {@code If-Match}, and every error as a {@value #PROBLEM} document with the status it has.
 * {@code OpenApiContractIntegrationTests} checks it against the statuses the handlers answer.
 */
final class DocumentedResponses implements OperationCustomizer {

    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    static final String PROBLEM = "Problem";
    private static final String PROBLEM_REF = "#/components/schemas/" + PROBLEM;
    private static final String ETAG = "ETag";

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        if (mapping == null || mapping.method().length != 1) {
            return operation;
        }
        RequestMethod method = mapping.method()[0];
        String path = mapping.path().length > 0 ? mapping.path()[0] : "";
        boolean conditionalWrite = handler.hasMethodAnnotation(RequiresIfMatch.class);
        boolean body = Arrays.stream(handler.getMethodParameters()).anyMatch(p -> p.hasParameterAnnotation(RequestBody.class));

        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        ApiResponse success = responses.remove("200");
        Content content = success == null ? null : success.getContent();
        switch (method) {
            case POST -> {
                responses.addApiResponse("201", new ApiResponse().description("Created, or the recorded answer of the "
                                + "first request with this Idempotency-Key").content(content)
                        .addHeaderObject("Location", header("The created resource's URL"))
                        .addHeaderObject(ETAG, header("The strong ETag of the created version"))
                        .addHeaderObject(IDEMPOTENCY_KEY + "-Replayed", header("true on a replayed answer")));
                operation.addParametersItem(new HeaderParameter().name(IDEMPOTENCY_KEY).required(false)
                        .description("1 to 255 visible ASCII characters, unique per request of this caller on this "
                                + "endpoint: a retry with it answers the first request's response instead of creating "
                                + "again (kept api.idempotency.retention; required when api.idempotency.required)")
                        .schema(new StringSchema().minLength(1).maxLength(255).pattern("^[\\x21-\\x7E]+$")));
                problem(responses, "422", "The Idempotency-Key was used for a different request "
                        + "(IDEMPOTENCY_KEY_REUSED)");
            }
            case DELETE -> responses.addApiResponse("204", new ApiResponse().description("Deleted")
                    .addHeaderObject(ETAG, header("The strong ETag of the deleted (final) version")));
            default -> {
                ApiResponse ok = new ApiResponse().description("OK").content(content);
                if (path.endsWith("/{id}")) {
                    ok.addHeaderObject(ETAG, header("The strong ETag of the version shown"));
                }
                responses.addApiResponse("200", ok);
            }
        }
        if (method == RequestMethod.GET && path.endsWith("/{id}")) {
            responses.addApiResponse("304", new ApiResponse().description("Not modified: If-None-Match matched")
                    .addHeaderObject(ETAG, header("The strong ETag of the current version")));
            problem(responses, "412", "If-Match matches no current version");
            operation.addParametersItem(new HeaderParameter().name(IfMatch.HEADER).required(false)
                    .description("Answer only if the current version is one of these ETags (or *); 412 otherwise")
                    .schema(new StringSchema()));
            operation.addParametersItem(new HeaderParameter().name("If-None-Match").required(false)
                    .description("ETags you hold (or *): 304 without a body when the current version is one of them")
                    .schema(new StringSchema()));
        }
        boolean caseScopedWrite = method != RequestMethod.GET && CaseScopedResource.mappedAt(path).isPresent();
        problem(responses, "400", "Invalid path or query parameters (a query parameter the operation does not take "
                + "included), headers or body (VALIDATION_FAILED, MALFORMED_REQUEST, "
                + "MALFORMED_IF_MATCH, BAD_REQUEST" + (method == RequestMethod.POST ? ", IDEMPOTENCY_KEY_REQUIRED" : "")
                + ")");
        responses.addApiResponse("401", new ApiResponse().description("No valid bearer token (empty body)"));
        responses.addApiResponse("403", new ApiResponse().description("The ruleset denies it (empty body)"));
        if (path.contains("{")) {
            problem(responses, "404", "No such resource");
        }
        problem(responses, "406", "The Accept header names nothing this operation answers");
        if (body) {
            problem(responses, "413", "The body exceeds api.max-body-size");
            problem(responses, "415", "The body is not JSON");
        }
        if (method == RequestMethod.POST || conditionalWrite) {
            problem(responses, "409", "A concurrent change, a refused state transition or a duplicate; for placements "
                    + "and foster homes also the foster-home gate: HOME_AT_CAPACITY, HOME_NOT_LICENSED, "
                    + "CAPACITY_BELOW_OCCUPANCY, PLACEMENT_NEEDS_HOME, FINAL_PLACEMENT_KEEPS_HOME, "
                    + "HOME_OF_ANOTHER_JURISDICTION"
                    + (caseScopedWrite ? "; PROJECTION_BEHIND when Min-Assignment-Revision was not reached in time" : "")
                    + (method == RequestMethod.POST ? "; IDEMPOTENCY_KEY_IN_USE while a request with the key is in "
                    + "flight (retry)" : ""));
        }
        if (conditionalWrite) {
            problem(responses, "412", "If-Match names no current version: GET again and reapply");
            problem(responses, "428", "If-Match is missing, blank or *");
        }
        problem(responses, "500", "A failure on the server (no internals in the answer)");
        problem(responses, "503", Responses.DATABASE_BUSY);
        responses.get("503").addHeaderObject(HttpHeaders.RETRY_AFTER, new Header()
                .description(Responses.DATABASE_BUSY_RETRY_AFTER).schema(new IntegerSchema().minimum(java.math.BigDecimal.ONE)));
        if (caseScopedWrite) {
            documentProjectionWait(operation, responses);
        }
        operation.setResponses(sorted(responses));
        return operation;
    }

    /**
     * A write of a case-scoped record may wait for the projection ({@code Min-Assignment-Revision}, {@code Prefer:
     * wait}), says the assignment revision it was made under, and when to retry a 409 {@code PROJECTION_BEHIND} or a
     * 429 {@code TOO_MANY_WAITERS}.
     */
    private static void documentProjectionWait(Operation operation, ApiResponses responses) {
        problem(responses, "429", Responses.TOO_MANY_WAITERS);
        operation.addParametersItem(new HeaderParameter().name("Min-Assignment-Revision").required(false)
                .description("Wait until the projection of the record's case has reached this assignment revision "
                        + "before authorizing; 409 PROJECTION_BEHIND, with nothing written, if it does not within the "
                        + "wait").schema(new IntegerSchema().format("int64").minimum(java.math.BigDecimal.ZERO)));
        operation.addParametersItem(new HeaderParameter().name("Prefer").required(false)
                .description("wait=S (RFC 7240): how many seconds Min-Assignment-Revision may wait, at most "
                        + "api.assignment.max-wait; 0 when absent. A malformed wait is 400, also without "
                        + "Min-Assignment-Revision; other preferences are ignored")
                .schema(new StringSchema().example("wait=5")));
        responses.forEach((status, response) -> {
            if (status.startsWith("2")) {
                response.addHeaderObject(Responses.ASSIGNMENT_REVISION,
                        header("The case assignment revision the write was authorized and made under"));
            }
            if (status.equals("409") || status.equals("429")) {
                response.addHeaderObject(HttpHeaders.RETRY_AFTER, new Header().description(status.equals("409")
                        ? Responses.PROJECTION_BEHIND_RETRY_AFTER : Responses.TOO_MANY_WAITERS_RETRY_AFTER)
                        .schema(new IntegerSchema().minimum(java.math.BigDecimal.ONE)));
            }
        });
    }

    /** The problem document's schema, for the components section. */
    static Schema<?> problemSchema() {
        return new ObjectSchema().description("RFC 9457 problem document")
                .addProperty("type", new StringSchema().format("uri"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri-reference"))
                .addProperty("code", new StringSchema()._enum(Arrays.stream(ProblemCode.values()).map(Enum::name).toList()))
                .addProperty("request_id", new StringSchema().description("The X-Request-Id of the answer"))
                .addProperty("trace_id", new StringSchema().pattern("^[0-9a-f]{32}$").description(
                        "The W3C trace id of the request: the caller's traceparent's when it sent a valid one"))
                .addProperty("assignment_trace_id", new StringSchema().pattern("^[0-9a-f]{32}$").description(
                        "The W3C trace id of the upstream event that set the case assignment the request held under its "
                        + "lock, when that event carried one: the event a 409 CONCURRENT_MODIFICATION refused for"))
                .addProperty("errors", new ArraySchema().items(new ObjectSchema()
                        .addProperty("field", new StringSchema())
                        .addProperty("message", new StringSchema())))
                .required(List.of("type", "title", "status", "detail", "code", "request_id"));
    }

    private static void problem(ApiResponses responses, String status, String description) {
        responses.addApiResponse(status, new ApiResponse().description(description).content(new Content()
                .addMediaType(ProblemWriter.PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref(PROBLEM_REF)))));
    }

    private static Header header(String description) {
        return new Header().description(description).schema(new StringSchema());
    }

    private static ApiResponses sorted(ApiResponses responses) {
        ApiResponses sorted = new ApiResponses();
        responses.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(entry -> sorted.addApiResponse(entry.getKey(), entry.getValue()));
        return sorted;
    }
}
