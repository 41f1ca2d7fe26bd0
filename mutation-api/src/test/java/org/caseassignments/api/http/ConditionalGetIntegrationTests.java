package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

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

/** RFC 9110 §13.2.2 on single-resource GET and HEAD: If-Match first (412), then If-None-Match (304). */
@ApiIntegrationTest
class ConditionalGetIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private final String admin = "Authorization: Bearer " + TestTokens.admin("a-1").token();
    private RawHttp http;
    private UUID home;
    private String path;
    private String etag;

    @BeforeEach
    void resource() {
        http = new RawHttp(port);
        home = Rows.fosterHome().insert(DB.jdbc());
        path = "/foster-homes/" + home;
        etag = TestETags.fosterHome(home, 1);
    }

    @Test
    void shouldAnswer304WithTheETagAndNoBodyWhenIfNoneMatchMatches() {
        String other = TestETags.fosterHome(home, 2);
        for (String ifNoneMatch : new String[] {etag, "*", other + ", " + etag, "W/" + etag, other + ",W/" + etag}) {
            for (String method : new String[] {"GET", "HEAD"}) {
                RawHttp.Answer answer = get(method, "If-None-Match: " + ifNoneMatch);

                assertThat(answer.status()).as(method + " " + ifNoneMatch + " " + answer).isEqualTo(304);
                assertThat(answer.header("ETag")).hasValue(etag);
                assertThat(answer.body()).isEmpty();
            }
        }
    }

    @Test
    void shouldAnswer200WhenIfNoneMatchNamesOnlyOtherVersionsOrIsMalformed() {
        for (String ifNoneMatch : new String[] {TestETags.fosterHome(home, 2), TestETags.placement(home, 1), "\"1\"",
                "not-a-tag"}) {
            RawHttp.Answer answer = get("GET", "If-None-Match: " + ifNoneMatch);

            assertThat(answer.status()).as(ifNoneMatch + " " + answer).isEqualTo(200);
            assertThat(answer.header("ETag")).hasValue(etag);
            assertThat(answer.body()).contains("\"id\":\"" + home + "\"");
        }
    }

    @Test
    void shouldAnswer412WhenIfMatchOnAGetMatchesNoCurrentVersion() {
        for (String ifMatch : new String[] {TestETags.fosterHome(home, 2), "W/" + etag, "\"1\", \"2\""}) {
            for (String method : new String[] {"GET", "HEAD"}) {
                RawHttp.Answer answer = get(method, "If-Match: " + ifMatch);

                assertThat(answer.status()).as(method + " " + ifMatch + " " + answer).isEqualTo(412);
                if (method.equals("GET")) {
                    assertThat(answer.contentType()).startsWith("application/problem+json");
                    assertThat(answer.body()).contains("\"code\":\"PRECONDITION_FAILED\"");
                }
            }
        }
    }

    @Test
    void shouldAnswer200WhenIfMatchMatchesOrIsAWildcard() {
        for (String ifMatch : new String[] {etag, "*", TestETags.fosterHome(home, 2) + ", " + etag}) {
            assertThat(get("GET", "If-Match: " + ifMatch).status()).as(ifMatch).isEqualTo(200);
        }
        assertThat(get("GET", "If-Match: 7").body()).contains("MALFORMED_IF_MATCH");
    }

    @Test
    void shouldEvaluateIfMatchBeforeIfNoneMatch() {
        RawHttp.Answer answer = get("GET", "If-Match: " + TestETags.fosterHome(home, 2) + "\r\nIf-None-Match: " + etag);

        assertThat(answer.status()).isEqualTo(412);
    }

    @Test
    void shouldAnswer404And403BeforeAnyPreconditionAlsoForAnotherJurisdictionsRecord() {
        RawHttp.Answer missing = http.send("GET /foster-homes/" + UUID.randomUUID() + " HTTP/1.1\r\n" + admin
                + "\r\nIf-None-Match: *");
        UUID caseId = Cases.assignedTo(DB.jdbc(), "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(DB.jdbc());
        RawHttp.Answer denied = http.send("GET /placements/" + placement + " HTTP/1.1\r\nAuthorization: Bearer "
                + TestTokens.caseworker("w-9").token() + "\r\nIf-None-Match: *");

        RawHttp.Answer otherJurisdiction = http.send("GET /placements/" + placement + " HTTP/1.1\r\nAuthorization: Bearer "
                + TestTokens.admin("a-1").jurisdiction("texas").token() + "\r\nIf-None-Match: *");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(denied.status()).isEqualTo(403);
        assertThat(otherJurisdiction.status()).as("a precondition never answers for another jurisdiction's record")
                .isEqualTo(403);
    }

    private RawHttp.Answer get(String method, String condition) {
        return http.send(method + " " + path + " HTTP/1.1\r\n" + admin + "\r\n" + condition);
    }
}
