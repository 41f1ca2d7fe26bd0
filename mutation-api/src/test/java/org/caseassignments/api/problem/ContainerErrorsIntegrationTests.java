package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.RawHttp;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Errors raised outside the handlers (by Tomcat before any filter, by Spring Security's firewall, by
 * routing and content negotiation) are problem documents with a code, the security headers and the
 * request id, like every other error. Sent over a raw socket: {@code java.net.http} refuses most of them.
 */
@ApiIntegrationTest
class ContainerErrorsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private final String admin = "Authorization: Bearer " + TestTokens.admin("a-1").token();
    private final String placement = "/placements/" + UUID.randomUUID();
    private RawHttp http;

    @BeforeEach
    void client() {
        http = new RawHttp(port);
    }

    @Test
    void shouldAnswerAProblemDocumentToHeadersOverTheLimit() {
        RawHttp.Answer answer = http.send("GET " + placement + " HTTP/1.1\r\nX-Padding: " + "a".repeat(9 * 1024));

        assertProblem(answer, 400, "BAD_REQUEST");
    }

    @Test
    void shouldAnswerAProblemDocumentToAnOverlongRequestTarget() {
        RawHttp.Answer answer = http.send("GET /placements/" + "a".repeat(10 * 1024) + " HTTP/1.1");

        assertThat(answer.status()).as(answer.toString()).isIn(400, 414);
        assertProblem(answer, answer.status(), "BAD_REQUEST");
    }

    @Test
    void shouldAnswerAProblemDocumentToEncodedDotSegmentsAndSlashes() {
        for (String target : new String[] {"/placements/%2e%2e/%2e%2e/etc", "/placements/..%2f..%2fetc",
                "/placements/%2E%2E", "/foster-homes/a%2fb"}) {
            assertProblem(http.send("GET " + target + " HTTP/1.1\r\n" + admin), 400, "BAD_REQUEST");
        }
    }

    @Test
    void shouldAnswerAProblemDocumentToCharactersHttpDoesNotAllowInTheTarget() {
        for (String target : new String[] {"/placements/a{b", "/placements/a|b", "/placements/a\"b"}) {
            assertProblem(http.send("GET " + target + " HTTP/1.1\r\n" + admin), 400, "BAD_REQUEST");
        }
    }

    @Test
    void shouldAnswerAProblemDocumentToWhatTheFirewallRejects() {
        for (String target : new String[] {"/placements/..;/foster-homes", "/placements/x;jsessionid=1",
                "/placements/%0d%0aSet-Cookie:%20a=b", "/placements/%0a", "/placements/%25"}) {
            assertProblem(http.send("GET " + target + " HTTP/1.1\r\n" + admin), 400, "BAD_REQUEST");
        }
    }

    @Test
    void shouldReadABlankAcceptAsAnyMediaTypeEvenOnThePrometheusScrape() {
        RawHttp.Answer scrape = new RawHttp(managementPort).send("GET /actuator/prometheus HTTP/1.1\r\nAccept: ");

        assertThat(scrape.status()).as(scrape.body()).isEqualTo(200);
        assertProblem(http.send("GET " + placement + " HTTP/1.1\r\nAccept: \r\n" + admin), 404, "NOT_FOUND");
    }

    @Test
    void shouldAnswer405WithTheMethodsThePathServesToUnknownMethodsAndTrace() {
        for (String method : new String[] {"FOO", "TRACE", "PROPFIND", "trace"}) {
            RawHttp.Answer answer = http.send(method + " " + placement + " HTTP/1.1\r\n" + admin);

            assertProblem(answer, 405, "METHOD_NOT_ALLOWED");
            assertThat(answer.header("Allow")).as(method).hasValue("GET, HEAD, OPTIONS, PATCH");
        }
        assertProblem(http.send("TRACE /no-such-thing HTTP/1.1\r\n" + admin), 404, "NOT_FOUND");
        assertProblem(http.send("CONNECT localhost:443 HTTP/1.1\r\n" + admin), 501, "NOT_IMPLEMENTED");
    }

    @Test
    void shouldAnswerProblemDocumentsToRoutingAndNegotiationErrors() {
        assertProblem(http.send("GET /no-such-thing HTTP/1.1\r\n" + admin), 404, "NOT_FOUND");
        RawHttp.Answer put = http.send("PUT " + placement + " HTTP/1.1\r\n" + admin + "\r\nContent-Type: application/json",
                "{}".getBytes());
        assertProblem(put, 405, "METHOD_NOT_ALLOWED");
        assertThat(put.header("Allow")).hasValueSatisfying(allow -> assertThat(allow).contains("GET", "PATCH"));
        String home = "/foster-homes/" + Rows.fosterHome().insert(DB.jdbc());
        assertProblem(http.send("GET " + home + " HTTP/1.1\r\n" + admin + "\r\nAccept: text/html"),
                406, "NOT_ACCEPTABLE");
        assertProblem(http.send("POST /foster-homes HTTP/1.1\r\n" + admin + "\r\nContent-Type: text/plain",
                "name=x".getBytes()), 415, "UNSUPPORTED_MEDIA_TYPE");
        assertProblem(http.send("POST /foster-homes HTTP/1.1\r\n" + admin + "\r\nContent-Type: */*", "{}".getBytes()),
                415, "UNSUPPORTED_MEDIA_TYPE");
        assertProblem(http.send("GET /error HTTP/1.1"), 404, "NOT_FOUND");
        assertProblem(http.send("GET /readyz?x=% HTTP/1.1"), 400, "BAD_REQUEST");
        assertProblem(http.send("POST /actuator/beans HTTP/1.1\r\n" + admin), 404, "NOT_FOUND");
    }

    @Test
    void shouldEchoAWellFormedRequestIdAndReplaceAnyOther() {
        RawHttp.Answer echoed = http.send("GET /no-such-thing HTTP/1.1\r\n" + admin + "\r\nX-Request-Id: trace-42.a_B");
        RawHttp.Answer replaced = http.send("GET /no-such-thing HTTP/1.1\r\n" + admin + "\r\nX-Request-Id: a b<script>");
        RawHttp.Answer tooLong = http.send("GET /no-such-thing HTTP/1.1\r\n" + admin + "\r\nX-Request-Id: " + "a".repeat(65));
        RawHttp.Answer success = http.send("GET /readyz HTTP/1.1\r\nX-Request-Id: probe-1");

        assertThat(echoed.header(RequestIds.HEADER)).hasValue("trace-42.a_B");
        assertThat(json(echoed).path("request_id").asString()).isEqualTo("trace-42.a_B");
        assertThat(replaced.header(RequestIds.HEADER)).get().asString().matches("[0-9a-f-]{36}");
        assertThat(json(replaced).path("request_id").asString()).isEqualTo(replaced.header(RequestIds.HEADER).orElseThrow());
        assertThat(tooLong.header(RequestIds.HEADER)).get().asString().hasSize(36);
        assertThat(success.status()).isEqualTo(200);
        assertThat(success.header(RequestIds.HEADER)).hasValue("probe-1");
    }

    @Test
    void shouldCarryTheRequestIdOnUnauthenticatedAnswersToo() {
        RawHttp.Answer answer = http.send("GET " + placement + " HTTP/1.1\r\nX-Request-Id: anon-1");

        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.header(RequestIds.HEADER)).hasValue("anon-1");
    }

    private static void assertProblem(RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.contentType()).as(answer.toString()).startsWith("application/problem+json");
        JsonNode problem = json(answer);
        assertThat(problem.path("code").asString()).as(answer.toString()).isEqualTo(code);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("type").asString()).startsWith("urn:case-assignments:problem:");
        assertThat(problem.path("title").asString()).isNotBlank();
        assertThat(problem.path("detail").asString()).isNotBlank();
        String requestId = answer.header(RequestIds.HEADER).orElseThrow(() -> new AssertionError("no request id: " + answer));
        assertThat(problem.path("request_id").asString()).isEqualTo(requestId);
        assertThat(answer.header("X-Content-Type-Options")).as(answer.toString()).hasValue("nosniff");
        assertThat(answer.header("X-Frame-Options")).hasValue("DENY");
        assertThat(answer.header("Cache-Control")).get().asString().contains("no-store");
        assertThat(answer.body()).doesNotContain("<html", "Apache Tomcat", "Exception");
    }

    private static JsonNode json(RawHttp.Answer answer) {
        return JSON.readTree(answer.body());
    }
}
