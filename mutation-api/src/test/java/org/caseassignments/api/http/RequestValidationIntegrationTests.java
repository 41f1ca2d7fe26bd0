package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.RawHttp;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Input the service refuses as 400 {@code VALIDATION_FAILED} naming the field, before it reaches
 * PostgreSQL: strict JSON binding (no enum ordinals, no scalar coercion, no cut dates), text PostgreSQL
 * cannot store or that is not one line, numbers and dates out of range, blank path variables; and the
 * integrity violations that still reach the database, answered 409 without naming the constraint.
 */
@ApiIntegrationTest
class RequestValidationIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldRefuseAnEnumByItsOrdinal() {
        UUID placement = placement();

        Reply reply = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1), "{\"status\": 1}");

        assertInvalid(reply, "status");
        assertThat(status(placement)).isEqualTo("PROPOSED");
    }

    @Test
    void shouldRefuseANumberOrABooleanReadAsText() {
        for (String name : new String[] {"5", "5.5", "true"}) {
            Reply reply = api.post("/foster-homes", admin, home("\"name\": " + name));

            assertInvalid(reply, "name");
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM foster_homes WHERE name IN ('5', '5.5', 'true')", Long.class))
                .isZero();
    }

    @Test
    void shouldRefuseADateTimeForADateAndAnEmptyStringForAUuid() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String placements = "/cases/" + caseId + "/placements";

        assertInvalid(api.post(placements, admin, "{\"start_date\": \"2020-01-01T00:00:00Z\"}"), "start_date");
        assertInvalid(api.post(placements, admin, "{\"end_date\": \"2020-01-01T00:00:00\"}"), "end_date");
        assertInvalid(api.post(placements, admin, "{\"start_date\": 18262}"), "start_date");
        assertInvalid(api.post(placements, admin, "{\"start_date\": [2020, 1, 1]}"), "start_date");
        assertInvalid(api.post(placements, admin, "{\"foster_home_id\": \"\"}"), "foster_home_id");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Long.class, caseId)).isZero();
    }

    @Test
    void shouldRefuseANulCharacterInEveryTextFieldBeforeItReachesPostgresql() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        assertInvalid(api.post("/foster-homes", admin, home("\"name\": \"a\\u0000b\"")), "name");
        assertInvalid(api.post("/foster-homes", admin,
                "{\"name\": \"Oak\", \"license_number\": \"L\\u0000\", \"admin_unit\": \"u\"}"), "license_number");
        assertInvalid(api.post("/cases/" + caseId + "/kinship-options", admin,
                "{\"relative_name\": \"\\u0000\", \"relationship\": \"aunt\"}"), "relative_name");
        assertInvalid(api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1),
                "{\"admin_unit\": \"u\\u0000\"}"), "admin_unit");
        assertInvalid(api.patch("/kinship-options/" + option, admin, TestETags.kinshipOption(option, 1),
                "{\"relationship\": \"a\\u0000\"}"), "relationship");
    }

    @Test
    void shouldRefuseUnpairedSurrogatesAndControlCharacters() {
        Reply surrogate = api.post("/foster-homes", admin, home("\"name\": \"a\\ud800b\""));
        Reply lineFeed = api.post("/foster-homes", admin, home("\"name\": \"a\\nb\""));
        Reply c1 = api.post("/foster-homes", admin, home("\"name\": \"a\\u0085b\""));
        Reply emoji = api.post("/foster-homes", admin, home("\"name\": \"Oak \\ud83c\\udf33\""));

        assertInvalid(surrogate, "name");
        assertThat(message(surrogate)).contains("unpaired surrogate");
        assertInvalid(lineFeed, "name");
        assertThat(message(lineFeed)).contains("U+000A");
        assertInvalid(c1, "name");
        assertThat(emoji.status()).as(emoji.toString()).isEqualTo(201);
        assertThat(emoji.text("name")).isEqualTo("Oak \uD83C\uDF33");
    }

    @Test
    void shouldRefuseTextLongerThanItsDocumentedMaximum() {
        assertInvalid(api.post("/foster-homes", admin, home("\"name\": \"" + "x".repeat(201) + "\"")), "name");
        assertThat(api.post("/foster-homes", admin, home("\"name\": \"" + "x".repeat(200) + "\"")).status())
                .isEqualTo(201);
    }

    @Test
    void shouldRefuseANumberOutOfRangeAsInvalidFieldNotAsMalformedJson() {
        Reply tooLarge = api.post("/foster-homes", admin, home("\"capacity\": 99999999999"));
        Reply fraction = api.post("/foster-homes", admin, home("\"capacity\": 1.0"));

        assertInvalid(tooLarge, "capacity");
        assertThat(message(tooLarge)).contains("out of range");
        assertInvalid(fraction, "capacity");
    }

    @Test
    void shouldRefuseDatesOutsideYearsOneToNineThousandNineHundredNinetyNine() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String placements = "/cases/" + caseId + "/placements";
        UUID placement = placement();

        assertInvalid(api.post(placements, admin, "{\"start_date\": \"+10000-01-01\"}"), "start_date");
        assertInvalid(api.post(placements, admin, "{\"end_date\": \"-0001-01-01\"}"), "end_date");
        assertInvalid(api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"start_date\": \"+294277-01-01\"}"), "start_date");
        assertThat(api.post(placements, admin, "{\"start_date\": \"0001-01-01\", \"end_date\": \"9999-12-31\"}").status())
                .isEqualTo(201);
    }

    @Test
    void shouldRefuseABlankPathVariableAsAnInvalidField() {
        Reply blank = api.get("/placements/%20", admin);

        assertInvalid(blank, "id");
        assertThat(blank.json().path("instance").asString()).startsWith("/placements/");
    }

    @Test
    void shouldAnswer409WithoutTheConstraintToAnyOtherIntegrityViolation() {
        jdbc.execute("ALTER TABLE foster_homes ADD CONSTRAINT foster_homes_test_no_forbidden_name CHECK (name <> 'Forbidden')");
        try {
            Reply reply = api.post("/foster-homes", admin, home("\"name\": \"Forbidden\""));

            assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
            assertThat(reply.contentType()).startsWith("application/problem+json");
            assertThat(reply.code()).isEqualTo("INTEGRITY_VIOLATION");
            assertThat(reply.json().path("type").asString()).isEqualTo("urn:case-assignments:problem:integrity-violation");
            assertThat(reply.body()).doesNotContain("foster_homes_test_no_forbidden_name", "foster_homes", "constraint",
                    "SQL", "check");
        } finally {
            jdbc.execute("ALTER TABLE foster_homes DROP CONSTRAINT foster_homes_test_no_forbidden_name");
        }
    }

    @Test
    void shouldRefuseAQueryParameterTheOperationDoesNotTakeBeforeItWritesOrAnswersAnything() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);

        Reply dryRun = api.send(ApiClient.request("PATCH", "/foster-homes/" + home + "?dry_run=true").token(admin)
                .ifMatch(TestETags.fosterHome(home, 1)).json("{\"name\": \"Oak\"}"));
        Reply misspelt = api.get("/cases/" + caseId + "/assignment?as_of_revison=0", admin);
        Reply single = api.get("/foster-homes/" + home + "?fields=name&fields=id", admin);

        assertInvalid(dryRun, "dry_run");
        assertThat(dryRun.text("detail")).contains("takes no query parameter");
        assertThat(jdbc.queryForObject("SELECT name FROM foster_homes WHERE id = ?", String.class, home))
                .isNotEqualTo("Oak");
        assertInvalid(misspelt, "as_of_revison");
        assertThat(misspelt.text("detail")).contains("as_of_revision").contains("min_revision").contains("wait");
        assertInvalid(single, "fields");
    }

    @Test
    void shouldAnswerThousandsOfUnknownQueryParametersWithASmallProblemDocument() {
        UUID home = Rows.fosterHome().insert(jdbc);
        String query = IntStream.range(0, 1_000).mapToObj(i -> "a" + i).collect(Collectors.joining("&"));

        Reply reply = api.get("/foster-homes/" + home + "?" + query, admin);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(fields(reply)).hasSize(11).startsWith("a0", "a1", "a2").contains("a9");
        assertThat(reply.json().path("errors").path(10).path("message").asString()).contains("and 990 more");
        assertThat(reply.text("detail")).contains("takes no query parameter");
        assertThat(reply.body().length()).as("the problem document's size").isLessThan(2_000);
    }

    @Test
    void shouldCountARequestRefusedForAQueryParameterItsOperationDoesNotTake() {
        UUID home = Rows.fosterHome().insert(jdbc);
        double before = refusedQueries("GET /foster-homes/{id}");

        Reply reply = api.get("/foster-homes/" + home + "?fields=name", admin);

        assertInvalid(reply, "fields");
        assertThat(refusedQueries("GET /foster-homes/{id}")).isEqualTo(before + 1);
    }

    @Test
    void shouldAnswerAnUndecodableQueryParameterNameAsAnUndecodableValueIsAnswered() {
        UUID home = Rows.fosterHome().insert(jdbc);

        RawHttp http = new RawHttp(port);

        RawHttp.Answer name = http.send("GET /foster-homes/" + home + "?%zz=1 HTTP/1.1\r\nAuthorization: Bearer " + admin);
        RawHttp.Answer value = http.send("GET /foster-homes?license_status=%zz HTTP/1.1\r\nAuthorization: Bearer "
                + admin);

        assertThat(value.body()).as(value.toString()).contains("\"BAD_REQUEST\"");
        assertThat(name.status()).as(name.toString()).isEqualTo(400);
        assertThat(name.body()).as(name.toString()).contains("\"BAD_REQUEST\"").contains("not validly percent-encoded");
    }

    @Test
    void shouldShortenALongUnknownParameterNameWithoutSplittingACharacter() {
        UUID home = Rows.fosterHome().insert(jdbc);
        String name = "a".repeat(63) + "\uD83D\uDE00" + "b".repeat(10);

        Reply reply = api.get("/foster-homes/" + home + "?" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "=1",
                admin);

        assertInvalid(reply, "a".repeat(63) + "\uD83D\uDE00" + "\u2026");
    }

    private double refusedQueries(String operation) {
        Counter counter = meters.find("api.query.parameters.refused").tag("operation", operation).counter();
        return counter == null ? 0 : counter.count();
    }

    private UUID placement() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
    }

    private String status(UUID placement) {
        return jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, placement);
    }

    /** A valid foster home body with one field replaced: {@code home("\"name\": 5")}. */
    private static String home(String field) {
        String name = field.substring(0, field.indexOf(':'));
        StringBuilder body = new StringBuilder("{").append(field);
        for (String[] defaults : new String[][] {{"\"name\"", "\"Oak\""}, {"\"license_number\"", null},
                {"\"admin_unit\"", "\"unit-1\""}}) {
            if (!defaults[0].equals(name)) {
                String value = defaults[1] == null ? "\"L-" + UUID.randomUUID() + "\"" : defaults[1];
                body.append(", ").append(defaults[0]).append(": ").append(value);
            }
        }
        return body.append('}').toString();
    }

    private static void assertInvalid(Reply reply, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.code()).as(reply.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(fields(reply)).as(reply.toString()).containsExactly(field);
    }

    private static List<String> fields(Reply reply) {
        return reply.json().path("errors").valueStream().map(error -> error.path("field").asString()).toList();
    }

    private static String message(Reply reply) {
        return reply.json().path("errors").path(0).path("message").asString();
    }
}
