package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
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

/**
 * Every status and {@code code} the API answers with: problem documents with type, title, status,
 * detail, instance and code for every error but 401 and 403, which have empty bodies.
 */
@ApiIntegrationTest
class ProblemResponsesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.max-body-size", () -> "4KB");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldAnswer428WhenIfMatchIsMissingBlankOrAWildcard() {
        UUID home = Rows.fosterHome().insert(jdbc);

        for (String ifMatch : new String[] {null, "", "*"}) {
            Reply reply = api.patch("/foster-homes/" + home, admin, ifMatch, "{\"name\": \"x\"}");
            assertProblem(reply, 428, "PRECONDITION_REQUIRED");
        }
    }

    @Test
    void shouldCheckIfMatchBeforeReadingTheBodyOrThePath() {
        assertProblem(api.patch("/foster-homes/" + UUID.randomUUID(), admin, null, "{not json"), 428,
                "PRECONDITION_REQUIRED");
        assertProblem(api.patch("/foster-homes/not-a-uuid", admin, "7", "{\"name\": \"x\"}"), 400, "MALFORMED_IF_MATCH");
    }

    @Test
    void shouldAnswer400ToAnIfMatchThatIsNotAListOfEntityTags() {
        UUID home = Rows.fosterHome().insert(jdbc);

        assertProblem(api.patch("/foster-homes/" + home, admin, "1", "{\"name\": \"x\"}"), 400, "MALFORMED_IF_MATCH");
        assertProblem(api.delete("/kinship-options/" + UUID.randomUUID(), admin, "\"1"), 400, "MALFORMED_IF_MATCH");
    }

    @Test
    void shouldAnswer412WhenIfMatchNamesAnotherVersion() {
        UUID home = Rows.fosterHome().insert(jdbc);

        assertProblem(api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 2), "{\"name\": \"x\"}"),
                412, "PRECONDITION_FAILED");
        assertProblem(api.patch("/foster-homes/" + home, admin, "W/" + TestETags.fosterHome(home, 1),
                "{\"name\": \"x\"}"), 412, "PRECONDITION_FAILED");
        assertThat(jdbc.queryForObject("SELECT name FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo("Maple House");
    }

    @Test
    void shouldAnswer409ToAStateTransitionTheMachineRefuses() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID home = Rows.fosterHome().licenseStatus("REVOKED").insert(jdbc);

        Reply skipped = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1), "{\"status\": \"ENDED\"}");
        Reply revived = api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1), "{\"license_status\": \"ACTIVE\"}");

        assertProblem(skipped, 409, "INVALID_TRANSITION");
        assertThat(skipped.text("detail")).contains("PROPOSED", "ENDED");
        assertProblem(revived, 409, "INVALID_TRANSITION");
        assertThat(revived.text("detail")).contains("REVOKED is final");
    }

    @Test
    void shouldAnswer409ToADuplicateLicenseNumberWithoutLeakingTheConstraint() {
        Rows.fosterHome().licenseNumber("LIC-TAKEN").insert(jdbc);
        UUID other = Rows.fosterHome().licenseNumber("LIC-MINE").insert(jdbc);

        Reply created = api.post("/foster-homes", admin,
                "{\"name\": \"Oak\", \"license_number\": \"LIC-TAKEN\", \"admin_unit\": \"unit-1\"}");
        Reply renumbered = api.patch("/foster-homes/" + other, admin, TestETags.fosterHome(other, 1),
                "{\"license_number\": \"LIC-TAKEN\"}");

        for (Reply reply : new Reply[] {created, renumbered}) {
            assertProblem(reply, 409, "DUPLICATE_LICENSE_NUMBER");
            assertThat(reply.body()).doesNotContain("foster_homes_license_number_unique", "duplicate key", "SQL",
                    "constraint");
        }
    }

    @Test
    void shouldAnswer404ToWhatDoesNotExist() {
        String unknown = "/placements/" + UUID.randomUUID();

        assertProblem(api.get(unknown, admin), 404, "NOT_FOUND");
        assertProblem(api.patch(unknown, admin, "\"1\"", "{\"status\": \"ACTIVE\"}"), 404, "NOT_FOUND");
        assertProblem(api.get("/foster-homes/" + UUID.randomUUID(), admin), 404, "NOT_FOUND");
        assertProblem(api.get("/no-such-resource", admin), 404, "NOT_FOUND");
    }

    @Test
    void shouldAnswer400WithTheFieldErrorsOfAnInvalidBody() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply blank = api.post("/cases/" + caseId + "/kinship-options", admin, "{\"relative_name\": \" \"}");
        Reply dates = api.post("/cases/" + caseId + "/placements", admin,
                "{\"start_date\": \"2026-05-02\", \"end_date\": \"2026-05-01\"}");
        Reply capacity = api.post("/foster-homes", admin,
                "{\"name\": \"Oak\", \"license_number\": \"L-1\", \"admin_unit\": \"u\", \"capacity\": -1}");
        Reply noHome = api.post("/cases/" + caseId + "/placements", admin,
                "{\"foster_home_id\": \"" + UUID.randomUUID() + "\"}");

        assertProblem(blank, 400, "VALIDATION_FAILED");
        assertThat(fields(blank)).contains("relative_name", "relationship");
        assertProblem(dates, 400, "VALIDATION_FAILED");
        assertThat(fields(dates)).containsExactly("end_date");
        assertProblem(capacity, 400, "VALIDATION_FAILED");
        assertThat(fields(capacity)).containsExactly("capacity");
        assertProblem(noHome, 400, "VALIDATION_FAILED");
        assertThat(fields(noHome)).containsExactly("foster_home_id");
        UUID home = Rows.fosterHome().insert(jdbc);
        Reply blankPatch = api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1),
                "{\"name\": \"  \", \"capacity\": -2}");
        assertProblem(blankPatch, 400, "VALIDATION_FAILED");
        assertThat(fields(blankPatch)).containsExactlyInAnyOrder("name", "capacity");
    }

    @Test
    void shouldAnswer400ToMalformedJsonUnknownFieldsWrongTypesAndBadUuids() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String kinship = "/cases/" + caseId + "/kinship-options";

        assertProblem(api.post(kinship, admin, "{\"relative_name\": "), 400, "MALFORMED_REQUEST");
        assertProblem(api.post(kinship, admin, ""), 400, "MALFORMED_REQUEST");
        assertProblem(api.post(kinship, admin, "[1, 2]"), 400, "MALFORMED_REQUEST");
        Reply unknown = api.post(kinship, admin, "{\"relative_name\": \"A\", \"relationship\": \"aunt\", \"colour\": 1}");
        assertProblem(unknown, 400, "VALIDATION_FAILED");
        assertThat(fields(unknown)).containsExactly("colour");
        Reply version = api.post(kinship, admin, "{\"relative_name\": \"A\", \"relationship\": \"aunt\", \"row_version\": 3}");
        assertThat(fields(version)).containsExactly("row_version");
        Reply wrongType = api.post(kinship, admin, "{\"relative_name\": \"A\", \"relationship\": \"aunt\", \"approved\": \"yes\"}");
        assertProblem(wrongType, 400, "VALIDATION_FAILED");
        assertThat(fields(wrongType)).containsExactly("approved");
        Reply badUuidInBody = api.post("/cases/" + caseId + "/placements", admin, "{\"foster_home_id\": \"nope\"}");
        assertThat(fields(badUuidInBody)).containsExactly("foster_home_id");
        Reply badStatus = api.patch("/placements/" + UUID.randomUUID(), admin, "\"1\"", "{\"status\": \"PAUSED\"}");
        assertThat(fields(badStatus)).containsExactly("status");
        Reply badUuidInPath = api.get("/placements/not-a-uuid", admin);
        assertProblem(badUuidInPath, 400, "VALIDATION_FAILED");
        assertThat(fields(badUuidInPath)).containsExactly("id");
        assertProblem(api.patch("/placements/" + UUID.randomUUID(), admin, "\"1\"", "{}"), 400, "VALIDATION_FAILED");
    }

    @Test
    void shouldAnswer413ToAnOversizedBody() {
        String big = "{\"relative_name\": \"" + "x".repeat(8 * 1024) + "\", \"relationship\": \"aunt\"}";
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply reply = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options").token(admin)
                .body("application/json", big.getBytes(StandardCharsets.UTF_8)));

        assertProblem(reply, 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void shouldAnswerProblemDocumentsForWrongMethodsAndMediaTypes() {
        assertProblem(api.send(ApiClient.request("PUT", "/placements/" + UUID.randomUUID()).token(admin).json("{}")),
                405, "METHOD_NOT_ALLOWED");
        assertProblem(api.send(ApiClient.request("POST", "/foster-homes").token(admin)
                .body("text/plain", "name=x".getBytes(StandardCharsets.UTF_8))), 415, "UNSUPPORTED_MEDIA_TYPE");
    }

    @Test
    void shouldAnswer401WithAnEmptyBodyToAMissingOrInvalidToken() {
        String path = "/foster-homes/" + Rows.fosterHome().insert(jdbc);
        String[] invalid = {
                null,
                "not.a.jwt",
                TestTokens.admin("a-1").signedByStranger().token(),
                TestTokens.admin("a-1").expiredAt(Instant.now().minusSeconds(600)).token(),
                TestTokens.admin("a-1").audience("someone-else").token(),
                TestTokens.admin("a-1").issuer("https://impostor.test").token(),
                TestTokens.subject(null).roles("admin").token(),
                TestTokens.admin("a-1").jurisdiction("atlantis").token()};

        for (String token : invalid) {
            Reply reply = api.get(path, token);
            assertThat(reply.status()).as(String.valueOf(token)).isEqualTo(401);
            assertThat(reply.body()).isEmpty();
            assertThat(reply.header("WWW-Authenticate")).get().asString().startsWith("Bearer");
        }
        assertThat(api.get(path, admin).status()).isEqualTo(200);
    }

    @Test
    void shouldAnswer403WithAnEmptyBodyToADenial() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String stranger = TestTokens.caseworker("w-2").token();

        for (Reply reply : new Reply[] {
                api.get("/placements/" + placement, stranger),
                api.patch("/placements/" + placement, stranger, TestETags.placement(placement, 1),
                        "{\"status\": \"ACTIVE\"}"),
                api.post("/cases/" + caseId + "/placements", stranger, "{}")}) {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
            assertThat(reply.contentType()).doesNotContain("problem");
        }
    }

    private static void assertProblem(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        JsonNode problem = reply.json();
        assertThat(problem.path("code").asString()).as(reply.toString()).isEqualTo(code);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("type").asString()).isEqualTo(
                "urn:case-assignments:problem:" + code.toLowerCase().replace('_', '-'));
        assertThat(problem.path("title").asString()).isNotBlank();
        assertThat(problem.path("detail").asString()).isNotBlank();
        assertThat(problem.path("instance").asString()).startsWith("/");
    }

    private static java.util.List<String> fields(Reply reply) {
        return reply.json().path("errors").valueStream().map(error -> error.path("field").asString()).toList();
    }
}
