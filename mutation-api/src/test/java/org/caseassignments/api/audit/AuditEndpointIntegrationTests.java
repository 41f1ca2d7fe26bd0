package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /audit}: only the {@code auditor} role of a jurisdiction reads it, and only its own
 * jurisdiction's records, whatever the filters and cursor say; filters by resource, caller and time;
 * pages with a cursor that neither skips nor repeats.
 */
@ApiIntegrationTest
class AuditEndpointIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final List<String> JURISDICTIONS = List.of("georgia", "texas");
    private static final List<String> ROLES = List.of("auditor", "caseworker", "supervisor", "county_director", "admin",
            "service");
    private static final int PER_JURISDICTION = 5;
    /** Each jurisdiction's records name one resource and one caller of their own. */
    private static final UUID GEORGIA_RESOURCE = UUID.randomUUID();
    private static final UUID TEXAS_RESOURCE = UUID.randomUUID();

    @LocalServerPort
    int port;

    private ApiClient api;

    @BeforeAll
    static void records() {
        JdbcTemplate jdbc = DB.jdbc();
        for (int i = 0; i < PER_JURISDICTION; i++) {
            insert(jdbc, "georgia", "ga-caller-" + (i % 2), i % 2 == 0 ? GEORGIA_RESOURCE : UUID.randomUUID(), i);
            insert(jdbc, "texas", "tx-caller-" + (i % 2), i % 2 == 0 ? TEXAS_RESOURCE : UUID.randomUUID(), i);
        }
    }

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    static Stream<Arguments> everyRoleOfEveryJurisdiction() {
        List<Arguments> cases = new ArrayList<>();
        for (String jurisdiction : JURISDICTIONS) {
            for (String role : ROLES) {
                cases.add(Arguments.of(jurisdiction, role));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} of {0}")
    @MethodSource("everyRoleOfEveryJurisdiction")
    void shouldServeOnlyAuditorsAndOnlyTheirJurisdictionsRecords(String jurisdiction, String role) {
        String token = TestTokens.subject("someone").roles(role).jurisdiction(jurisdiction).token();
        String other = jurisdiction.equals("georgia") ? "texas" : "georgia";
        UUID otherResource = jurisdiction.equals("georgia") ? TEXAS_RESOURCE : GEORGIA_RESOURCE;
        String otherCaller = (jurisdiction.equals("georgia") ? "tx" : "ga") + "-caller-0";

        List<Reply> replies = List.of(api.get("/audit", token), api.get("/audit?resource_id=" + otherResource, token),
                api.get("/audit?caller_sub=" + otherCaller, token));

        if (!role.equals("auditor")) {
            assertThat(replies).extracting(Reply::status).containsOnly(403);
            return;
        }
        assertThat(replies).extracting(Reply::status).containsOnly(200);
        assertThat(jurisdictions(replies.get(0))).hasSize(PER_JURISDICTION).containsOnly(jurisdiction);
        assertThat(records(replies.get(1))).as("another jurisdiction's resource").isEmpty();
        assertThat(records(replies.get(2))).as("another jurisdiction's caller").isEmpty();
        assertThat(jurisdictions(replies.get(0))).doesNotContain(other);
    }

    @Test
    void shouldFilterByResourceCallerAndTimeNewestFirst() {
        String auditor = auditor("georgia");

        JsonNode byResource = records(api.get("/audit?resource_id=" + GEORGIA_RESOURCE, auditor));
        JsonNode byCaller = records(api.get("/audit?caller_sub=ga-caller-1", auditor));
        JsonNode inRange = records(api.get("/audit?from=" + encode("2026-01-02T00:00:00Z") + "&until="
                + encode("2026-01-04T00:00:00+00:00"), auditor));

        assertThat(byResource).hasSize(3).allSatisfy(r -> assertThat(r.path("resource_id").asString())
                .isEqualTo(GEORGIA_RESOURCE.toString()));
        assertThat(byCaller).hasSize(2).allSatisfy(r -> assertThat(r.path("caller_sub").asString())
                .isEqualTo("ga-caller-1"));
        assertThat(inRange).extracting(r -> r.path("recorded_at").asString())
                .containsExactly("2026-01-03T00:00:00Z", "2026-01-02T00:00:00Z");
    }

    @Test
    void shouldPageWithACursorThatNeitherSkipsNorRepeats() {
        String auditor = auditor("texas");
        List<Long> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Reply page = api.get("/audit?limit=2" + (cursor == null ? "" : "&cursor=" + cursor), auditor);
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            records(page).forEach(record -> seen.add(record.path("id").asLong()));
            cursor = page.json().path("next_cursor").asString(null);
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(seen).hasSize(PER_JURISDICTION).doesNotHaveDuplicates();
        List<Long> all = new ArrayList<>();
        records(api.get("/audit", auditor)).forEach(record -> all.add(record.path("id").asLong()));
        assertThat(seen).isEqualTo(all);
    }

    @Test
    void shouldRefuseACursorOfAnotherJurisdictionOrOfOtherFilters() {
        Reply texasPage = api.get("/audit?limit=1", auditor("texas"));
        String texasCursor = texasPage.json().path("next_cursor").asString();

        Reply georgia = api.get("/audit?cursor=" + texasCursor, auditor("georgia"));
        Reply otherFilter = api.get("/audit?caller_sub=ga-caller-1&cursor=" + texasCursor, auditor("texas"));
        Reply sameQuery = api.get("/audit?limit=1&cursor=" + texasCursor, auditor("texas"));

        assertThat(georgia.code()).as(georgia.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(georgia.json().path("errors").get(0).path("field").asString()).isEqualTo("cursor");
        assertThat(otherFilter.code()).as(otherFilter.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(jurisdictions(sameQuery)).hasSize(1).containsOnly("texas");
    }

    @Test
    void shouldRefuseACursorInTheFormOfATimeAndAnIdThatItDidNotHandOut() {
        String cursor = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("1767225600000000:3".getBytes(StandardCharsets.US_ASCII));

        Reply reply = api.get("/audit?cursor=" + cursor, auditor("georgia"));

        assertThat(reply.code()).as(reply.toString()).isEqualTo("VALIDATION_FAILED");
    }

    @Test
    void shouldRefuseAMalformedFilterCursorOrLimit() {
        String auditor = auditor("georgia");

        assertThat(api.get("/audit?cursor=not-a-cursor", auditor).code()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/audit?limit=0", auditor).code()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/audit?limit=501", auditor).code()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/audit?from=yesterday", auditor).code()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/audit?resource_id=nope", auditor).status()).isEqualTo(400);
        assertThat(api.get("/audit?caller_sub=a%00b", auditor).code()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/audit?caller_sub=" + "s".repeat(256), auditor).code()).isEqualTo("VALIDATION_FAILED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"from=%2B300000-01-01T00:00:00Z", "until=-5000-01-01T00:00:00Z", "from=0000-12-31T23:59:59Z",
            "until=%2B10000-01-01T00:00:00Z", "from=-999999999-01-01T00:00:00Z"})
    void shouldRefuseATimeOutsideWhatTheDatabaseStoresNamingTheParameter(String query) {
        Reply reply = api.get("/audit?" + query, auditor("georgia"));

        assertThat(reply.code()).as(reply.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(reply.json().path("errors").get(0).path("field").asString()).isEqualTo(query.substring(0, query.indexOf('=')));
    }

    @Test
    void shouldAcceptTheFirstAndLastInstantOfTheStoredRange() {
        Reply reply = api.get("/audit?from=0001-01-01T00:00:00Z&until=9999-12-31T23:59:59.999999Z", auditor("georgia"));

        assertThat(jurisdictions(reply)).hasSize(PER_JURISDICTION).containsOnly("georgia");
    }

    @ParameterizedTest
    @ValueSource(longs = {Long.MIN_VALUE, Long.MAX_VALUE, -62_135_596_800_000_001L, 253_402_300_800_000_000L})
    void shouldRefuseACursorWhoseTimeIsOutsideWhatTheDatabaseStores(long micros) {
        String cursor = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString((micros + ":1").getBytes(StandardCharsets.US_ASCII));

        Reply reply = api.get("/audit?cursor=" + cursor, auditor("georgia"));

        assertThat(reply.code()).as(reply.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(reply.json().path("errors").get(0).path("field").asString()).isEqualTo("cursor");
    }

    private static String auditor(String jurisdiction) {
        return TestTokens.subject("aud-1").roles("auditor").jurisdiction(jurisdiction).token();
    }

    private static JsonNode records(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().path("records");
    }

    private static List<String> jurisdictions(Reply reply) {
        List<String> found = new ArrayList<>();
        records(reply).forEach(record -> found.add(record.path("jurisdiction").asString()));
        return found;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A refusal record at 2026-01-0{day+1}; the migration only made partitions from now on, so add January. */
    private static void insert(JdbcTemplate jdbc, String jurisdiction, String caller, UUID resource, int day) {
        jdbc.execute("""
                CREATE TABLE IF NOT EXISTS audit_records_y2026m01 PARTITION OF audit_records
                   FOR VALUES FROM ('2026-01-01 00:00:00+00') TO ('2026-02-01 00:00:00+00')""");
        jdbc.update("""
                INSERT INTO audit_records (recorded_at, request_id, outcome, status, caller_sub, caller_roles,
                                           jurisdiction, action, resource_type, resource_id)
                VALUES (timestamptz '2026-01-01 00:00:00+00' + make_interval(days => ?), 'r', 'REFUSED', 403, ?,
                        '{caseworker}', ?, 'update', 'placement', ?)""", day, caller, jurisdiction, resource);
    }
}
