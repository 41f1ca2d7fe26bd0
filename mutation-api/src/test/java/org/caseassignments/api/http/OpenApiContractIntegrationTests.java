package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.RawHttp;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The served OpenAPI document against the handlers: every operation is exercised over HTTP into the
 * statuses it can answer, and each status seen must be documented for that operation, with the
 * headers and problem schema the conventions promise.
 */
@ApiIntegrationTest
class OpenApiContractIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String[] GATE_CODES = {"HOME_AT_CAPACITY", "HOME_NOT_LICENSED", "CAPACITY_BELOW_OCCUPANCY",
            "PLACEMENT_NEEDS_HOME", "FINAL_PLACEMENT_KEEPS_HOME", "HOME_OF_ANOTHER_JURISDICTION"};

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.max-body-size", () -> "1KB");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("a-1").token();
    private final String stranger = TestTokens.caseworker("w-9").token();
    private final Map<String, Set<Integer>> seen = new TreeMap<>();
    private final String big = "{\"name\": \"" + "x".repeat(2048) + "\"}";
    private RawHttp http;

    @BeforeEach
    void client() {
        http = new RawHttp(port);
    }

    @Test
    void shouldDocumentEveryStatusEachOperationAnswers() {
        exerciseFosterHomes();
        exercisePlacements();
        exerciseKinshipOptions();
        exerciseAssignments();
        exerciseAudit();

        Set<Integer> all = new TreeSet<>();
        seen.values().forEach(all::addAll);
        assertThat(all).as("the exercise reaches every status").containsAll(
                Set.of(200, 201, 204, 304, 400, 401, 403, 404, 406, 409, 412, 413, 415, 428));
        JsonNode paths = apiDocs().path("paths");
        Set<String> documented = new TreeSet<>();
        paths.properties().forEach(path -> path.getValue().properties().forEach(operation ->
                documented.add(operation.getKey().toUpperCase() + " " + path.getKey())));
        assertThat(seen.keySet()).as("operations exercised by this test").isEqualTo(documented);
        seen.forEach((operation, statuses) -> {
            String[] parts = operation.split(" ", 2);
            JsonNode responses = paths.path(parts[1]).path(parts[0].toLowerCase()).path("responses");
            for (int status : statuses) {
                assertThat(responses.has(String.valueOf(status))).as(operation + " documents " + status
                        + " (documented: " + responses.propertyNames() + ")").isTrue();
            }
        });
    }

    @Test
    void shouldDocumentHeadersAndTheProblemSchema() {
        JsonNode docs = apiDocs();
        JsonNode paths = docs.path("paths");

        JsonNode create = paths.path("/foster-homes").path("post").path("responses");
        assertThat(create.has("200")).isFalse();
        assertThat(create.path("201").path("headers").has("Location")).isTrue();
        assertThat(create.path("201").path("headers").has("ETag")).isTrue();
        assertThat(create.path("201").path("content").has("application/json")).isTrue();
        JsonNode delete = paths.path("/kinship-options/{id}").path("delete");
        assertThat(delete.path("responses").has("204")).isTrue();
        assertThat(delete.path("responses").has("200")).isFalse();
        assertThat(parameters(delete)).contains("If-Match");
        JsonNode read = paths.path("/placements/{id}").path("get");
        assertThat(read.path("responses").path("200").path("headers").has("ETag")).isTrue();
        assertThat(read.path("responses").path("304").path("headers").has("ETag")).isTrue();
        assertThat(parameters(read)).contains("If-Match", "If-None-Match");
        assertThat(read.path("responses").path("404").path("content").path("application/problem+json")
                .path("schema").path("$ref").asString()).isEqualTo("#/components/schemas/Problem");
        paths.valueStream().forEach(path -> path.valueStream().forEach(operation -> assertThat(operation.path("responses").path("503")
                .path("headers").has("Retry-After")).as("503 DATABASE_BUSY and its Retry-After, on every operation")
                .isTrue()));
        JsonNode problem = docs.path("components").path("schemas").path("Problem").path("properties");
        assertThat(problem.propertyNames()).contains("type", "title", "status", "detail", "instance", "code",
                "request_id", "errors");
        assertThat(problem.path("code").path("enum").valueStream().map(JsonNode::asString).toList())
                .contains("VALIDATION_FAILED", "PRECONDITION_FAILED", "NOT_FOUND", "BAD_REQUEST", "DATABASE_BUSY")
                .contains(GATE_CODES)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(ProblemCode.values()).map(Enum::name).toList());
    }

    /** Decision 22: every write that can meet the foster-home gate names its three refusals in its 409. */
    @Test
    void shouldNameTheFosterHomeGatesRefusalsInThe409OfEveryWriteThatMeetsIt() {
        JsonNode paths = apiDocs().path("paths");

        for (String write : List.of("POST /cases/{caseId}/placements", "PATCH /placements/{id}", "PATCH /foster-homes/{id}")) {
            String[] parts = write.split(" ", 2);
            JsonNode conflict = paths.path(parts[1]).path(parts[0].toLowerCase()).path("responses").path("409");
            assertThat(conflict.path("description").asString("")).as(write).contains(GATE_CODES);
            assertThat(conflict.path("content").path("application/problem+json").path("schema").path("$ref").asString(""))
                    .as(write).isEqualTo("#/components/schemas/Problem");
        }
    }

    private void exerciseFosterHomes() {
        String op = "POST /foster-homes";
        record(op, send("POST /foster-homes", admin, null, "{\"name\": \"Oak\", \"license_number\": \"L-OA-1\", \"admin_unit\": \"u\"}"));
        record(op, send("POST /foster-homes", admin, null, "{\"name\": \"Oak\", \"license_number\": \"L-OA-1\", \"admin_unit\": \"u\"}"));
        record(op, send("POST /foster-homes", admin, null, "{\"name\": \" \"}"));
        record(op, send("POST /foster-homes", null, null, "{}"));
        record(op, send("POST /foster-homes", admin, null, big));
        record(op, raw("POST /foster-homes", admin, "Content-Type: text/plain", "x"));

        UUID home = Rows.fosterHome().licenseNumber("L-OA-2").insert(jdbc);
        String etag = TestETags.fosterHome(home, 1);
        op = "GET /foster-homes/{id}";
        record(op, send("GET /foster-homes/" + home, admin, null, null));
        record(op, raw("GET /foster-homes/" + home, admin, "If-None-Match: " + etag, null));
        record(op, raw("GET /foster-homes/" + home, admin, "If-Match: " + TestETags.fosterHome(home, 9), null));
        record(op, raw("GET /foster-homes/" + home, admin, "Accept: text/html", null));
        record(op, send("GET /foster-homes/" + UUID.randomUUID(), admin, null, null));
        record(op, send("GET /foster-homes/nope", admin, null, null));
        record(op, send("GET /foster-homes/" + home, null, null, null));

        op = "PATCH /foster-homes/{id}";
        record(op, send("PATCH /foster-homes/" + home, admin, etag, "{\"name\": \"Elm\"}"));
        record(op, send("PATCH /foster-homes/" + home, admin, null, "{\"name\": \"Elm\"}"));
        record(op, send("PATCH /foster-homes/" + home, admin, etag, "{\"name\": \"Elm\"}"));
        record(op, send("PATCH /foster-homes/" + home, admin, TestETags.fosterHome(home, 2), "{\"license_number\": \"L-OA-1\"}"));
        record(op, send("PATCH /foster-homes/" + home, admin, TestETags.fosterHome(home, 2), "{\"capacity\": -1}"));
        record(op, send("PATCH /foster-homes/" + UUID.randomUUID(), admin, etag, "{\"name\": \"Elm\"}"));
        record(op, send("PATCH /foster-homes/" + home, admin, etag, big));
        record(op, raw("PATCH /foster-homes/" + home, admin, "If-Match: " + etag + "\r\nContent-Type: text/plain", "x"));
        record(op, send("PATCH /foster-homes/" + home, null, etag, "{}"));
        UUID occupied = Rows.fosterHome().capacity(2).insert(jdbc);
        Rows.placement(Cases.assignedTo(jdbc, "w-1", "s-1", 1)).worker("w-1").supervisor("s-1").revision(1).in(occupied)
                .status("ACTIVE").insert(jdbc);
        record(op, refusedBy("CAPACITY_BELOW_OCCUPANCY",
                send("PATCH /foster-homes/" + occupied, admin, TestETags.fosterHome(occupied, 1, 1), "{\"capacity\": 0}")));

        op = "GET /foster-homes";
        record(op, send("GET /foster-homes?license_status=ACTIVE&min_room=1&limit=1", admin, null, null));
        record(op, send("GET /foster-homes?license_status=LICENSED", admin, null, null));
        record(op, send("GET /foster-homes?admin_unit=u%00", admin, null, null));
        record(op, raw("GET /foster-homes", admin, "Accept: text/html", null));
        record(op, send("GET /foster-homes", null, null, null));

        UUID texan = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        op = "GET /foster-homes/{id}/placements";
        record(op, send("GET /foster-homes/" + occupied + "/placements?status=ACTIVE", admin, null, null));
        record(op, send("GET /foster-homes/" + occupied + "/placements?status=LIVE", admin, null, null));
        record(op, send("GET /foster-homes/" + texan + "/placements", admin, null, null));
        record(op, send("GET /foster-homes/" + UUID.randomUUID() + "/placements", admin, null, null));
        record(op, send("GET /foster-homes/" + occupied + "/placements", null, null, null));
    }

    private void exercisePlacements() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String op = "POST /cases/{caseId}/placements";
        record(op, send("POST /cases/" + caseId + "/placements", admin, null, "{}"));
        record(op, send("POST /cases/" + caseId + "/placements", stranger, null, "{}"));
        record(op, send("POST /cases/" + caseId + "/placements", admin, null, "{\"status\": 1}"));
        record(op, send("POST /cases/" + UUID.randomUUID() + "/placements", admin, null, "{}"));
        record(op, send("POST /cases/" + caseId + "/placements", admin, null, big));
        record(op, raw("POST /cases/" + caseId + "/placements", admin, "Content-Type: text/plain", "x"));
        record(op, send("POST /cases/" + caseId + "/placements", null, null, "{}"));
        UUID suspended = Rows.fosterHome().licenseStatus("SUSPENDED").insert(jdbc);
        record(op, refusedBy("HOME_NOT_LICENSED",
                send("POST /cases/" + caseId + "/placements", admin, null, "{\"foster_home_id\": \"" + suspended + "\"}")));

        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String etag = TestETags.placement(placement, 1);
        op = "GET /placements/{id}";
        record(op, send("GET /placements/" + placement, admin, null, null));
        record(op, raw("GET /placements/" + placement, admin, "If-None-Match: *", null));
        record(op, raw("GET /placements/" + placement, admin, "If-Match: \"x\"", null));
        record(op, send("GET /placements/" + placement, stranger, null, null));
        record(op, send("GET /placements/" + UUID.randomUUID(), admin, null, null));
        record(op, send("GET /placements/nope", admin, null, null));

        op = "GET /cases/{caseId}/placements";
        record(op, send("GET /cases/" + caseId + "/placements", admin, null, null));
        record(op, send("GET /cases/nope/placements", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/placements", null, null, null));

        op = "PATCH /placements/{id}";
        record(op, send("PATCH /placements/" + placement, admin, etag, "{\"status\": \"ENDED\"}"));
        record(op, send("PATCH /placements/" + placement, admin, etag, "{\"status\": \"ACTIVE\"}"));
        record(op, send("PATCH /placements/" + placement, admin, etag, "{\"status\": \"ACTIVE\"}"));
        record(op, send("PATCH /placements/" + placement, admin, null, "{\"status\": \"ACTIVE\"}"));
        record(op, send("PATCH /placements/" + placement, stranger, TestETags.placement(placement, 2), "{\"status\": \"ENDED\"}"));
        record(op, send("PATCH /placements/" + UUID.randomUUID(), admin, etag, "{\"status\": \"ENDED\"}"));
        record(op, send("PATCH /placements/" + placement, admin, etag, "{\"status\": \"PAUSED\"}"));
        UUID full = Rows.fosterHome().capacity(0).insert(jdbc);
        UUID proposed = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(full).insert(jdbc);
        record(op, refusedBy("HOME_AT_CAPACITY",
                send("PATCH /placements/" + proposed, admin, TestETags.placement(proposed, 1), "{\"status\": \"ACTIVE\"}")));
    }

    private void exerciseKinshipOptions() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String op = "POST /cases/{caseId}/kinship-options";
        Set<Integer> created = record(op, send("POST /cases/" + caseId + "/kinship-options", admin, null,
                "{\"relative_name\": \"A\", \"relationship\": \"aunt\"}"));
        record(op, send("POST /cases/" + caseId + "/kinship-options", admin, null, "{\"relative_name\": \" \"}"));
        record(op, send("POST /cases/" + caseId + "/kinship-options", stranger, null, "{}"));
        assertThat(created).contains(201);

        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String etag = TestETags.kinshipOption(option, 1);
        op = "GET /kinship-options/{id}";
        record(op, send("GET /kinship-options/" + option, admin, null, null));
        record(op, raw("GET /kinship-options/" + option, admin, "If-None-Match: " + etag, null));
        record(op, raw("GET /kinship-options/" + option, admin, "If-Match: \"x\"", null));
        record(op, send("GET /kinship-options/" + UUID.randomUUID(), admin, null, null));

        op = "GET /cases/{caseId}/kinship-options";
        record(op, send("GET /cases/" + caseId + "/kinship-options", admin, null, null));
        record(op, send("GET /cases/nope/kinship-options", admin, null, null));

        op = "PATCH /kinship-options/{id}";
        record(op, send("PATCH /kinship-options/" + option, admin, etag, "{\"relationship\": \"uncle\"}"));
        record(op, send("PATCH /kinship-options/" + option, admin, etag, "{\"relationship\": \"aunt\"}"));
        record(op, send("PATCH /kinship-options/" + option, admin, null, "{\"relationship\": \"aunt\"}"));
        record(op, send("PATCH /kinship-options/" + option, admin, "nope", "{\"relationship\": \"aunt\"}"));

        op = "DELETE /kinship-options/{id}";
        record(op, send("DELETE /kinship-options/" + option, admin, null, null));
        record(op, send("DELETE /kinship-options/" + option, admin, etag, null));
        record(op, send("DELETE /kinship-options/" + option, admin, TestETags.kinshipOption(option, 2), null));
        record(op, send("DELETE /kinship-options/" + option, admin, TestETags.kinshipOption(option, 3), null));
        record(op, send("DELETE /kinship-options/" + option, stranger, TestETags.kinshipOption(option, 3), null));
    }

    private void exerciseAssignments() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String op = "GET /cases/{caseId}/assignment";
        record(op, send("GET /cases/" + caseId + "/assignment", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment", stranger, null, null));
        record(op, send("GET /cases/" + UUID.randomUUID() + "/assignment", admin, null, null));
        record(op, send("GET /cases/nope/assignment", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment?min_revision=2&wait=PT0.1S", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment?as_of_revision=0", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment?as_of=2026-01-01T00:00:00Z", admin, null, null));

        op = "GET /cases/{caseId}/assignment/history";
        record(op, send("GET /cases/" + caseId + "/assignment/history", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment/history?cursor=nope", admin, null, null));
        record(op, send("GET /cases/" + caseId + "/assignment/history", stranger, null, null));
        record(op, send("GET /cases/" + UUID.randomUUID() + "/assignment/history", admin, null, null));
    }

    private void exerciseAudit() {
        String auditor = TestTokens.subject("aud-1").roles("auditor").token();
        String op = "GET /audit";
        record(op, send("GET /audit", auditor, null, null));
        record(op, send("GET /audit?cursor=nope", auditor, null, null));
        record(op, send("GET /audit", stranger, null, null));
        record(op, send("GET /audit", null, null, null));
    }

    private static RawHttp.Answer refusedBy(String code, RawHttp.Answer answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(409);
        assertThat(JSON.readTree(answer.body()).path("code").asString()).as(answer.toString()).isEqualTo(code);
        return answer;
    }

    private Set<Integer> record(String operation, RawHttp.Answer answer) {
        assertThat(answer.status()).as(operation + " " + answer).isLessThan(500);
        Set<Integer> statuses = seen.computeIfAbsent(operation, key -> new TreeSet<>());
        statuses.add(answer.status());
        return statuses;
    }

    private RawHttp.Answer send(String request, String token, String ifMatch, String json) {
        String headers = (ifMatch == null ? "" : "If-Match: " + ifMatch)
                + (json == null ? "" : (ifMatch == null ? "" : "\r\n") + "Content-Type: application/json");
        return raw(request, token, headers, json);
    }

    private RawHttp.Answer raw(String request, String token, String headers, String body) {
        String head = request + " HTTP/1.1" + (token == null ? "" : "\r\nAuthorization: Bearer " + token)
                + (headers == null || headers.isEmpty() ? "" : "\r\n" + headers);
        return http.send(head, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode apiDocs() {
        RawHttp.Answer answer = http.send("GET /v3/api-docs HTTP/1.1");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    private static Set<String> parameters(JsonNode operation) {
        Set<String> names = new TreeSet<>();
        operation.path("parameters").forEach(parameter -> names.add(parameter.path("name").asString()));
        return names;
    }
}
