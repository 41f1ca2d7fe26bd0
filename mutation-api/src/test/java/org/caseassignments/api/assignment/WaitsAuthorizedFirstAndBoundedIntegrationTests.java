package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Waits for the projection (waited reads and writes held by {@code Min-Assignment-Revision}) are authorized before
 * they are registered, bounded per subject and in all, answered by one read per case, and answered in their own
 * request's logging context; against the real PostgreSQL, over HTTP.
 */
@ApiIntegrationTest
class WaitsAuthorizedFirstAndBoundedIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.assignment.recheck-interval", () -> "1h");
        registry.add("api.assignment.max-wait", () -> "1m");
        registry.add("api.assignment.max-waiters", () -> "5");
        registry.add("api.assignment.max-waiters-per-subject", () -> "3");
        registry.add("api.assignment.unknown-case-waiters-per-subject", () -> "1");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final ProjectorCommits projector = new ProjectorCommits(DB);
    private final String worker = TestTokens.caseworker("w-1").token();
    private final String supervisor = TestTokens.supervisor("s-1").token();
    private final List<CompletableFuture<Reply>> pending = new ArrayList<>();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    /** Every test leaves no waiter behind: the ones it opened are answered (or run out) before the next begins. */
    @AfterEach
    void noWaiterLeft() {
        Awaitility.await("every waiter released").atMost(Duration.ofSeconds(30))
                .until(() -> waiters() == 0);
    }

    @Test
    void shouldRefuse403BeforeWaitingWhenTheCaseIsAnotherJurisdictions() {
        UUID texan = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");

        long started = System.nanoTime();
        Reply reply = api.get("/cases/" + texan + "/assignment?min_revision=100&wait=PT5S", worker);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
        assertThat(reply.body()).doesNotContain("revision");
        assertThat(took).as("answered before any wait").isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void shouldRefuse403BeforeWaitingWhenTheCallersRoleMayNotReadTheAssignment() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String roleless = TestTokens.subject("nobody").token();

        long started = System.nanoTime();
        Reply reply = api.get("/cases/" + caseId + "/assignment?min_revision=100&wait=PT5S", roleless);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
        assertThat(took).as("answered before any wait").isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void shouldRefuse429WithRetryAfterPastThePerSubjectCapCountingReadsAndWritesAlike() {
        // Given w-1 holding its three waits: two reads and one write
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        waitFor(caseId, worker);
        waitFor(caseId, worker);
        pending.add(api.sendAsync(ApiClient.request("POST", "/cases/" + caseId + "/placements").token(worker).json("{}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=30")));
        awaitWaiters(3);

        // When it opens a fourth, a read or a write
        long started = System.nanoTime();
        Reply read = api.get("/cases/" + caseId + "/assignment?min_revision=2&wait=PT30S", worker);
        Reply write = api.send(ApiClient.request("POST", "/cases/" + caseId + "/placements").token(worker).json("{}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=30"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // Then both are 429 at once, with Retry-After, and the three held are answered by the commit
        for (Reply refused : List.of(read, write)) {
            assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
            assertThat(refused.code()).isEqualTo("TOO_MANY_WAITERS");
            assertThat(refused.header("Retry-After")).isPresent();
            assertThat(refused.json().path("request_id").asString()).isNotBlank();
        }
        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(refusals("subject")).isGreaterThanOrEqualTo(2);
        commit(caseId, "w-1", 2);
        assertThat(pending).allSatisfy(reply -> assertThat(reply.get(10, TimeUnit.SECONDS).status()).isIn(200, 201));
    }

    @Test
    void shouldRefuse429PastTheGlobalCapWhateverTheSubject() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        fiveWaiters(caseId);

        Reply refused = api.get("/cases/" + caseId + "/assignment?min_revision=2&wait=PT30S", supervisor);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
        assertThat(refused.code()).isEqualTo("TOO_MANY_WAITERS");
        assertThat(refusals("global")).isGreaterThanOrEqualTo(1);
        commit(caseId, "w-1", 2);
        for (CompletableFuture<Reply> reply : pending) {
            assertThat(reply.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }

    @Test
    void shouldWaitForAnUnknownCaseOnlyWithinTheSubjectsAllowance() throws Exception {
        UUID unknown = UUID.randomUUID();
        String caller = TestTokens.subject("probe").token();
        CompletableFuture<Reply> held = api.sendAsync(ApiClient.request("GET",
                "/cases/" + unknown + "/assignment?min_revision=0&wait=PT30S").token(caller));
        awaitWaiters(1);

        long started = System.nanoTime();
        Reply atOnce = api.get("/cases/" + UUID.randomUUID() + "/assignment?min_revision=0&wait=PT30S", caller);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(atOnce.status()).as(atOnce.toString()).isEqualTo(409);
        assertThat(atOnce.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(atOnce.json().path("current_revision").isNull()).isTrue();
        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(refusals("unknown_case")).isGreaterThanOrEqualTo(1);
        // the unknown case appears in another jurisdiction: the waiter is answered 403 like any read of it
        projector.assign(unknown, "w-1", 2, "texas");
        assertThat(held.get(10, TimeUnit.SECONDS).status()).isEqualTo(403);
    }

    /**
     * Tomcat learns that a waiting client went away only when it next touches the connection, and a waiting request
     * writes nothing: the waiter is released when Tomcat reports the error, at the latest when its wait ends.
     */
    @Test
    void shouldReleaseTheWaiterOfAClientThatWentAwayAtTheLatestWhenItsWaitEnds() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        try (Socket socket = new Socket("localhost", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /cases/" + caseId + "/assignment?min_revision=2&wait=PT2S HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + worker + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitWaiters(1);
        }

        Awaitility.await("the waiter of a client that went away released").atMost(Duration.ofSeconds(10))
                .until(() -> waiters() == 0);
    }

    @Test
    void shouldAnswerEveryWaiterOfACaseWithTheOneReadTheCommitWokeThemWith() throws Exception {
        double registrationReads = waiterReads("registration");
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        fiveWaiters(caseId);
        Awaitility.await("each waiter's own read when it registered").atMost(Duration.ofSeconds(10))
                .until(() -> waiterReads("registration") >= registrationReads + 5);
        double readsBefore = projectionReads();

        commit(caseId, "w-1", 2);

        for (CompletableFuture<Reply> reply : pending) {
            Reply answered = reply.get(10, TimeUnit.SECONDS);
            assertThat(answered.status()).as(answered.toString()).isEqualTo(200);
            assertThat(answered.json().path("assignment_revision").asLong()).isEqualTo(2);
        }
        assertThat(projectionReads() - readsBefore).as("reads of the projection row after the commit").isEqualTo(1);
    }

    @Test
    void shouldRefuse403NotProjectionBehindWhenTheCallerMayNotReadTheCasesAssignment() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String roleless = TestTokens.subject("nobody").token();

        Reply patch = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(roleless)
                .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "9223372036854775807").header("Prefer", "wait=5"));
        Reply create = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options").token(roleless)
                .json("{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}")
                .header("Min-Assignment-Revision", "9223372036854775807"));

        for (Reply reply : List.of(patch, create)) {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).doesNotContain(caseId.toString()).doesNotContain("PROJECTION_BEHIND");
        }
    }

    @Test
    void shouldNameNeitherTheCaseNorItsRevisionToACallerWhoMayNotReadThePlacement() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String stranger = TestTokens.caseworker("w-9").token();

        Reply reply = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(stranger)
                .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "9223372036854775807"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(reply.body()).doesNotContain(caseId.toString()).doesNotContain("current_revision");
        assertThat(reply.json().path("min_revision").asLong()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldNeverNameTheCaseOfARecordWhoseCaseTheProjectionDoesNotKnowToACallerOfAnotherJurisdiction() {
        UUID unknownCase = UUID.randomUUID();
        UUID placement = Rows.placement(unknownCase).bornUnknown().insert(jdbc);
        String texan = TestTokens.admin("tx-holds-a-write").jurisdiction("texas").token();

        for (String prefer : List.of("wait=0", "wait=1")) {
            Reply reply = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(texan)
                    .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                    .header("Min-Assignment-Revision", "5").header("Prefer", prefer));

            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).doesNotContain(unknownCase.toString());
        }
    }

    @Test
    void shouldRefuse404NotProjectionBehindForASoftDeletedKinshipOption() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        jdbc.update("UPDATE kinship_options SET active = false, deleted_at = now() WHERE id = ?", option);
        long current = jdbc.queryForObject("SELECT row_version FROM kinship_options WHERE id = ?", Long.class, option);

        for (String method : List.of("PATCH", "DELETE")) {
            ApiClient.Request request = ApiClient.request(method, "/kinship-options/" + option).token(worker)
                    .ifMatch(TestETags.kinshipOption(option, current)).header("Min-Assignment-Revision", "9223372036854775807");
            Reply reply = api.send(method.equals("PATCH") ? request.json("{\"approved\": true}") : request);

            assertThat(reply.status()).as(reply.toString()).isEqualTo(404);
            assertThat(reply.body()).doesNotContain(caseId.toString()).doesNotContain("PROJECTION_BEHIND");
        }
    }

    @Test
    void shouldLogAWaitedAnswerInItsOwnRequestsContextNeverAPreviousCallers() throws Exception {
        Logger decisions = (Logger) LoggerFactory.getLogger(PolicyEngine.DECISION_LOG);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        // the decision lines are what a waited read's answer logs; tests log warnings only
        Level level = decisions.getLevel();
        decisions.setLevel(Level.INFO);
        decisions.addAppender(logged);
        try {
            // Given w-1's waited read of its case answered, and then w-2's waited read of another case answered
            UUID first = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
            UUID second = Cases.assignedTo(jdbc, "w-2", "s-2", 1);
            for (UUID caseId : List.of(first, second)) {
                String caller = caseId.equals(first) ? worker : TestTokens.caseworker("w-2").token();
                CompletableFuture<Reply> waited = api.sendAsync(ApiClient.request("GET",
                        "/cases/" + caseId + "/assignment?min_revision=2&wait=PT30S").token(caller)
                        .header("X-Request-Id", "waited-" + caseId));
                awaitWaiters(1);
                commit(caseId, caseId.equals(first) ? "w-1" : "w-2", 2);
                assertThat(waited.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
            }

            // Then every line logged while answering on the waits' threads names its own request, caller and case
            List<ILoggingEvent> answered = logged.list.stream()
                    .filter(event -> event.getThreadName().startsWith("projection-wait")).toList();
            assertThat(answered).as("threads that logged decisions: %s",
                    logged.list.stream().map(ILoggingEvent::getThreadName).toList()).isNotEmpty();
            assertThat(answered).allSatisfy(event -> {
                Map<String, String> mdc = event.getMDCPropertyMap();
                String caseId = mdc.get("case_id");
                assertThat(mdc.get("request_id")).as(event.getFormattedMessage()).isEqualTo("waited-" + caseId);
                assertThat(mdc.get("sub")).as(event.getFormattedMessage())
                        .isEqualTo(caseId.equals(first.toString()) ? "w-1" : "w-2");
            });
        } finally {
            decisions.detachAppender(logged);
            decisions.setLevel(level);
        }
    }

    private void waitFor(UUID caseId, String token) {
        pending.add(api.sendAsync(ApiClient.request("GET", "/cases/" + caseId + "/assignment?min_revision=2&wait=PT30S")
                .token(token)));
    }

    private void commit(UUID caseId, String worker, long revision) {
        projector.assign(caseId, worker, revision);
    }

    /** Five reads waiting for revision 2 of the case: three of w-1's, two of s-1's (the global cap). */
    private void fiveWaiters(UUID caseId) {
        for (int i = 0; i < 3; i++) {
            waitFor(caseId, worker);
        }
        waitFor(caseId, supervisor);
        waitFor(caseId, supervisor);
        awaitWaiters(5);
    }

    private double waiters() {
        return meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value();
    }

    private double refusals(String reason) {
        return meters.find(ProjectionWaits.REFUSED_METRIC).tag("reason", reason).counters().stream()
                .mapToDouble(counter -> counter.count()).sum();
    }

    private double waiterReads(String trigger) {
        return meters.find(ProjectionWaits.READS_METRIC).tag("trigger", trigger).counters().stream()
                .mapToDouble(counter -> counter.count()).sum();
    }

    /** Reads of a known projection row, each timed by {@code api.projection.age}. */
    private double projectionReads() {
        return meters.get(CaseAssignments.AGE_METRIC).timer().count();
    }

    private void awaitWaiters(int count) {
        Awaitility.await("requests waiting for the projection").atMost(Duration.ofSeconds(30))
                .until(() -> waiters() >= count);
    }
}
