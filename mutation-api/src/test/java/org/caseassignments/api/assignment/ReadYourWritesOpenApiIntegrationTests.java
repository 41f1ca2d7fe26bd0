package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The served OpenAPI description says how to read your writes: each parameter's format, default and maximum (the
 * configured one), and when to retry a 409 {@code PROJECTION_BEHIND}.
 */
@ApiIntegrationTest
class ReadYourWritesOpenApiIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.assignment.max-wait", () -> "PT7S");
    }

    @LocalServerPort
    int port;

    private JsonNode paths;

    @BeforeEach
    void document() {
        Reply docs = new ApiClient(port).get("/v3/api-docs", null);
        assertThat(docs.status()).as(docs.toString()).isEqualTo(200);
        paths = docs.json().path("paths");
    }

    @Test
    void shouldDescribeEachWaitAndPastReadParameterWithItsFormatDefaultAndMaximum() {
        JsonNode get = paths.path("/cases/{caseId}/assignment").path("get");
        Map<String, JsonNode> parameters = parameters(get);

        assertThat(parameters.get("min_revision").path("schema").path("format").asString()).isEqualTo("int64");
        assertThat(parameters.get("min_revision").path("schema").path("minimum").asInt()).isZero();
        assertThat(parameters.get("wait").path("description").asString()).contains("ISO-8601 duration");
        assertThat(parameters.get("wait").path("schema").path("default").asString()).isEqualTo("PT0S");
        assertThat(parameters.get("wait").path("description").asString()).as("the configured maximum").contains("PT7S");
        assertThat(parameters.get("as_of").path("schema").path("format").asString()).isEqualTo("date-time");
        assertThat(parameters.get("as_of_revision").path("schema").path("minimum").asInt()).isZero();
        for (String name : List.of("min_revision", "wait", "as_of", "as_of_revision")) {
            assertThat(parameters.get(name).path("in").asString()).as(name).isEqualTo("query");
            assertThat(parameters.get(name).path("description").asString()).as(name).isNotBlank();
        }
        Map<String, JsonNode> history = parameters(paths.path("/cases/{caseId}/assignment/history").path("get"));
        assertThat(history.get("limit").path("description").asString()).as("the configured maximum").contains("500");
        assertThat(history.get("limit").path("schema").path("minimum").asInt()).isEqualTo(1);
        assertThat(history.get("cursor").path("description").asString()).contains("next_cursor");
    }

    @Test
    void shouldDocumentRetryAfterOnEveryProjectionBehindAndTheWaitHeadersOnEveryCaseScopedWrite() {
        assertThat(paths.path("/cases/{caseId}/assignment").path("get").path("responses").path("409").path("headers")
                .path("Retry-After").path("schema").path("type").asString()).isEqualTo("integer");
        Map<String, String> writes = Map.of("/cases/{caseId}/placements", "post", "/cases/{caseId}/kinship-options", "post",
                "/placements/{id}", "patch", "/kinship-options/{id}", "patch");
        for (var write : writes.entrySet()) {
            assertWaits(write.getKey() + " " + write.getValue(), paths.path(write.getKey()).path(write.getValue()));
        }
        assertWaits("DELETE /kinship-options/{id}", paths.path("/kinship-options/{id}").path("delete"));
        assertThat(parameters(paths.path("/foster-homes").path("post"))).as("not case-scoped")
                .doesNotContainKey("Min-Assignment-Revision");
    }

    @Test
    void shouldDocument429TooManyWaitersWithRetryAfterOnEveryOperationThatMayWait() {
        Map<String, JsonNode> waiting = Map.of("GET /cases/{caseId}/assignment",
                paths.path("/cases/{caseId}/assignment").path("get"),
                "POST /cases/{caseId}/placements", paths.path("/cases/{caseId}/placements").path("post"),
                "PATCH /placements/{id}", paths.path("/placements/{id}").path("patch"),
                "POST /cases/{caseId}/kinship-options", paths.path("/cases/{caseId}/kinship-options").path("post"),
                "PATCH /kinship-options/{id}", paths.path("/kinship-options/{id}").path("patch"),
                "DELETE /kinship-options/{id}", paths.path("/kinship-options/{id}").path("delete"));
        waiting.forEach((operation, documented) -> {
            JsonNode tooMany = documented.path("responses").path("429");
            assertThat(tooMany.path("description").asString()).as(operation).contains("TOO_MANY_WAITERS");
            assertThat(tooMany.path("headers").path("Retry-After").path("schema").path("type").asString())
                    .as(operation).isEqualTo("integer");
        });
        assertThat(paths.path("/foster-homes").path("post").path("responses").has("429")).as("never waits").isFalse();
    }

    private static void assertWaits(String operation, JsonNode write) {
        Map<String, JsonNode> parameters = parameters(write);
        assertThat(parameters).as(operation).containsKeys("Min-Assignment-Revision", "Prefer");
        assertThat(parameters.get("Min-Assignment-Revision").path("in").asString()).isEqualTo("header");
        JsonNode responses = write.path("responses");
        assertThat(responses.path("409").path("headers").has("Retry-After")).as(operation + " 409").isTrue();
        List<String> successes = responses.propertyNames().stream().filter(status -> status.startsWith("2")).toList();
        assertThat(successes).as(operation).isNotEmpty();
        successes.forEach(status -> assertThat(responses.path(status).path("headers").has("Assignment-Revision"))
                .as(operation + " " + status).isTrue());
    }

    private static Map<String, JsonNode> parameters(JsonNode operation) {
        Map<String, JsonNode> byName = new HashMap<>();
        operation.path("parameters").forEach(parameter -> byName.put(parameter.path("name").asString(), parameter));
        return byName;
    }
}
