package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.RawHttp;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plain waited read refused before the handler ({@link WaitedReadFilter}) answers exactly what the handler answers
 * the same request when it is left to it (an {@code Accept} naming the problem type goes to the handler's content
 * negotiation): the same status, the same headers, the same problem document, counted as the same operation; and a
 * waited read that is admitted is answered by the handler with the wait the filter began. Against the real
 * PostgreSQL, over HTTP.
 */
@ApiIntegrationTest
class WaitedReadRefusalsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String LEFT_TO_THE_HANDLER = "application/problem+json";
    /**
     * Headers that differ from one answer to the next whoever writes them, and the body's framing: the handler's
     * problem documents are chunked, those written before it carry their length.
     */
    private static final Set<String> PER_ANSWER = Set.of("date", "x-request-id", "content-length", "transfer-encoding");
    /** Members that differ from one answer to the next: the request's own ids. */
    private static final Set<String> PER_REQUEST = Set.of("request_id", "trace_id");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.assignment.recheck-interval", () -> "1h");
        registry.add("api.assignment.max-wait", () -> "1m");
        registry.add("api.assignment.max-waiters-per-subject", () -> "2");
        registry.add("api.assignment.unknown-case-waiters-per-subject", () -> "1");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final List<CompletableFuture<Reply>> pending = new ArrayList<>();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    /**
     * Every wait asked for is far longer than a test (PT60S) and each test has every answer in hand before it ends: a
     * waiter still counted then is one a refusal or a hand-off leaked, not one still waiting for its deadline.
     */
    @AfterEach
    void noWaiterLeft() {
        Awaitility.await("every waiter released").atMost(Duration.ofSeconds(2))
                .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() == 0);
    }

    @Test
    void shouldAnswer403AsTheHandlerDoesWhenTheWaitedReadIsRefusedBeforeIt() {
        // Given a case of another jurisdiction
        UUID texan = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        String path = "/cases/" + texan + "/assignment?min_revision=5&wait=PT60S";
        String worker = TestTokens.caseworker("w-1").token();
        long before = requests(403);

        // When the same waited read is refused before the handler, and by it
        Reply early = api.get(path, worker);
        Reply handled = api.send(ApiClient.request("GET", path).token(worker).header("Accept", LEFT_TO_THE_HANDLER));

        // Then both are the same empty 403, counted as the operation's
        assertThat(early.status()).as(early.toString()).isEqualTo(403);
        assertSameAnswer(early, handled);
        assertThat(early.body()).isEmpty();
        assertThat(requests(403) - before).isEqualTo(2);
    }

    @Test
    void shouldAnswer429AsTheHandlerDoesWhenTheWaitedReadIsRefusedBeforeIt() {
        // Given a caseworker holding its two waits
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 1);
        String path = "/cases/" + caseId + "/assignment?min_revision=2&wait=PT60S";
        String worker = TestTokens.caseworker("w-2").token();
        pending.add(api.sendAsync(ApiClient.request("GET", path).token(worker)));
        pending.add(api.sendAsync(ApiClient.request("GET", path).token(worker).header("Accept", LEFT_TO_THE_HANDLER)));
        Awaitility.await("two waiters").atMost(Duration.ofSeconds(10))
                .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() == 2);
        long before = requests(429);

        // When it opens a third, refused before the handler and by it
        Reply early = api.get(path, worker);
        Reply handled = api.send(ApiClient.request("GET", path).token(worker).header("Accept", LEFT_TO_THE_HANDLER));

        // Then both are the same 429 problem, counted as the operation's; the two held are answered by the commit
        assertThat(early.status()).as(early.toString()).isEqualTo(429);
        assertThat(early.code()).isEqualTo("TOO_MANY_WAITERS");
        assertSameAnswer(early, handled);
        assertThat(requests(429) - before).isEqualTo(2);
        new ProjectorCommits(DB).assign(caseId, "w-2", 2);
        assertThat(pending).allSatisfy(reply -> {
            Reply answer = reply.get(10, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(answer.json().path("assignment_revision").asLong()).isEqualTo(2);
        });
    }

    @Test
    void shouldAnswer409AsTheHandlerDoesPastTheUnknownCaseAllowance() {
        // Given a caller waiting for the one unknown case its allowance lets it
        String worker = TestTokens.caseworker("w-3").token();
        UUID awaited = UUID.randomUUID();
        pending.add(api.sendAsync(ApiClient.request("GET", "/cases/" + awaited
                + "/assignment?min_revision=1&wait=PT60S").token(worker)));
        Awaitility.await("one waiter").atMost(Duration.ofSeconds(10))
                .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() == 1);

        // When it asks for another unknown case, refused before the handler and by it
        String path = "/cases/" + UUID.randomUUID() + "/assignment?min_revision=1&wait=PT60S";
        Reply early = api.get(path, worker);
        Reply handled = api.send(ApiClient.request("GET", path).token(worker).header("Accept", LEFT_TO_THE_HANDLER));

        // Then both are the same 409 problem at once; the held one is answered when its case is projected
        assertThat(early.status()).as(early.toString()).isEqualTo(409);
        assertThat(early.code()).isEqualTo("PROJECTION_BEHIND");
        assertSameAnswer(early, handled);
        new ProjectorCommits(DB).assign(awaited, "w-3", 1);
        assertThat(pending).allSatisfy(reply -> assertThat(reply.get(10, TimeUnit.SECONDS).status()).isEqualTo(200));
    }

    @Test
    void shouldAnswer400AsWithoutTheFilterWhenTheQueryStringDoesNotDecode() {
        // Given a case the caller may read, at revision 1
        UUID caseId = Cases.assignedTo(jdbc, "w-4", "s-1", 1);
        String worker = TestTokens.caseworker("w-4").token();
        RawHttp http = new RawHttp(port);

        for (String query : List.of("min_revision=0&wait=PT1%", "wait=PT1%&min_revision=0",
                "as_of_revision=1&min_revision=%")) {
            for (String accept : new String[] {"", "\r\nAccept: " + LEFT_TO_THE_HANDLER}) {
                // When a read's query string does not decode
                RawHttp.Answer answer = http.send("GET /cases/" + caseId + "/assignment?" + query
                        + " HTTP/1.1\r\nAuthorization: Bearer " + worker + accept);

                // Then it is the 400 problem document of every undecodable query, never an answer without the parameter
                assertThat(answer.status()).as(query + accept + " " + answer).isEqualTo(400);
                assertThat(answer.contentType()).as(answer.toString()).startsWith(LEFT_TO_THE_HANDLER);
                assertThat(JSON.readTree(answer.body()).path("code").asString()).as(answer.toString())
                        .isEqualTo("BAD_REQUEST");
            }
        }
    }

    private static void assertSameAnswer(Reply early, Reply handled) {
        assertThat(early.status()).isEqualTo(handled.status());
        assertThat(headers(early)).isEqualTo(headers(handled));
        if (!handled.body().isEmpty()) {
            assertThat(members(early)).isEqualTo(members(handled));
        }
    }

    /** The answer's headers, names in lower case, without those that differ from one answer to the next. */
    private static Map<String, List<String>> headers(Reply reply) {
        Map<String, List<String>> headers = new java.util.TreeMap<>();
        reply.headers().forEach((name, values) -> {
            if (name != null && !PER_ANSWER.contains(name.toLowerCase())) {
                headers.put(name.toLowerCase(), values);
            }
        });
        return headers;
    }

    /** The problem document's members and values, less the request's own ids. */
    private static Map<String, String> members(Reply reply) {
        Map<String, String> members = new java.util.TreeMap<>();
        JsonNode json = reply.json();
        new TreeSet<>(json.propertyNames()).forEach(name -> {
            if (!PER_REQUEST.contains(name)) {
                members.put(name, json.get(name).toString());
            }
        });
        return members;
    }

    private long requests(int status) {
        return meters.find("http.server.requests").tag("uri", WaitedReadFilter.PATH_PATTERN)
                .tag("status", String.valueOf(status)).timers().stream().mapToLong(Timer::count).sum();
    }
}
