package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.problem.UnhandledFailures;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.DatabaseBusyReplies;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.PoolSessions;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The database refusing the reads a wait for the projection makes outside the handlers — a write held by
 * {@code Min-Assignment-Revision} is read before it is held and again when its wait ends — over HTTP against the real
 * PostgreSQL: the projection locked past {@code lock_timeout} by a second connection (as a rebuild's swap locks it),
 * or every pooled connection held past the pool's timeout. Each is answered as a handler meeting it would be, 503
 * {@code DATABASE_BUSY}, never a 500 nor an empty 200; nothing is written, and the caller's place among the waiters
 * is given back.
 *
 * <p>The waits end {@link #WAIT} after they begin, long after the refusal is in place however slowly this machine
 * starts it; the test checks it is in place while the request still waits. Regression guards, which passed before the
 * refused reads were answered 503 (a waited read's handler already answered the refusal, and an admitted wait was
 * already given back when its registration read failed):
 * {@code shouldAnswer503DatabaseBusyAndGiveTheWaitBackWhenTheReadAfterAWaitedReadsWaitIsRefused} and
 * {@code shouldRefuse503AndGiveTheCallersPlaceBackWhenTheReadAtRegistrationIsRefused}.
 */
@ApiIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class ProjectionWaitDatabaseRefusalIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    /** How long a wait the database refuses to end lasts, in seconds: far beyond starting the refusal. */
    private static final int WAIT = 10;

    /** How the test makes the database refuse the API's next read of the projection, and the reason it then counts. */
    enum Refusal {
        PROJECTION_LOCKED("55P03"), POOL_EXHAUSTED("pool-timeout");

        final String reason;

        Refusal(String reason) {
            this.reason = reason;
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "2");
        registry.add("spring.datasource.hikari.connection-timeout", () -> "400");
        registry.add("api.assignment.recheck-interval", () -> "1h");
        registry.add("api.assignment.max-wait", () -> "1m");
        // one wait per caller: a place not given back would refuse the caller's next wait (429)
        registry.add("api.assignment.max-waiters-per-subject", () -> "1");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource pool;

    @Autowired
    ProjectionWaits waits;

    @Autowired
    UnhandledFailures failures;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String worker = TestTokens.caseworker("w-1").token();
    private ApiClient api;

    @BeforeEach
    void lockTimeout() {
        api = new ApiClient(port);
        jdbc.execute("ALTER DATABASE " + DB.name() + " SET lock_timeout = '300ms'");
        PoolSessions.reading(pool, "lock_timeout", "300ms");
    }

    @AfterEach
    void databaseDefaults() {
        jdbc.execute("ALTER DATABASE " + DB.name() + " RESET lock_timeout");
        PoolSessions.reading(pool, "lock_timeout", "0");
    }

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void shouldAnswer503DatabaseBusyWithoutHoldingTheWriteWhenTheReadBeforeTheWaitIsRefused(Refusal refusal,
                                                                                           CapturedOutput output)
            throws Exception {
        // Given a placement of w-1's case at revision 1
        UUID placement = placementOfACaseAtRevision1();
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, refusal.reason);

        // When w-1 writes it with Min-Assignment-Revision: 2 while the database refuses the read of its case
        Reply reply;
        try (AutoCloseable refusing = refuse(refusal)) {
            reply = api.send(heldPatch(placement, 5));
        }

        // Then 503, nothing written, no wait held
        busy.assertAnswered(reply, output);
        assertNothingWrittenAndNoWaiterLeft(placement);
    }

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void shouldAnswer503DatabaseBusyNotAnEmpty200WhenTheReadAfterAHeldWritesWaitIsRefused(Refusal refusal,
                                                                                        CapturedOutput output)
            throws Exception {
        // Given w-1's write held for revision 2
        UUID placement = placementOfACaseAtRevision1();
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, refusal.reason);

        // When its wait ends while the database refuses the read that follows
        Reply reply = refusedOnceWaiting(heldPatch(placement, WAIT), refusal);

        // Then 503, nothing written, the wait given back
        busy.assertAnswered(reply, output);
        assertNothingWrittenAndNoWaiterLeft(placement);
    }

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void shouldAnswer503DatabaseBusyAndGiveTheWaitBackWhenTheReadAfterAWaitedReadsWaitIsRefused(Refusal refusal,
                                                                                              CapturedOutput output)
            throws Exception {
        // Given w-1's read waiting for revision 2 of its case
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, refusal.reason);

        // When its wait ends while the database refuses the read that follows
        Reply reply = refusedOnceWaiting(ApiClient.request("GET",
                "/cases/" + caseId + "/assignment?min_revision=2&wait=PT" + WAIT + "S").token(worker), refusal);

        // Then 503, and the caller may wait again
        busy.assertAnswered(reply, output);
        awaitNoWaiter();
        Reply again = api.get("/cases/" + caseId + "/assignment?min_revision=2&wait=PT1S", worker);
        assertThat(again.status()).as("a second wait within the caller's one: " + again).isEqualTo(409);
    }

    @Test
    void shouldRefuse503AndGiveTheCallersPlaceBackWhenTheReadAtRegistrationIsRefused() throws Exception {
        // Given w-1's case at revision 1, and w-1 allowed one wait
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        WaiterAdmission.Holder w1 = new WaiterAdmission.Holder("georgia", "w-1");

        // When w-1 is admitted a wait while every connection of the pool is held, so that its read at registration fails
        Throwable refused;
        try (PoolSessions.Held held = PoolSessions.holdEvery(pool)) {
            refused = catchThrowable(() -> waits.await(caseId, 2, Duration.ofSeconds(WAIT), w1, false));
        }

        // Then the refusal is answered 503, and w-1's place is given back: none held, its next wait admitted
        assertThat(refused).isNotNull().isNotInstanceOf(ApiProblem.class);
        ApiProblem answer = failures.answer(refused, new MockHttpServletRequest("PATCH", "/placements/" + caseId));
        assertThat(answer.code()).isEqualTo(ProblemCode.DATABASE_BUSY);
        assertThat(answer.code().status().value()).isEqualTo(503);
        assertThat(waiters()).isZero();
        ProjectionWaits.Wait again = waits.await(caseId, 2, Duration.ofSeconds(WAIT), w1, false);
        try {
            assertThat(again.answer()).as("waiting, not refused nor answered").isNotDone();
            assertThat(waiters()).isEqualTo(1);
        } finally {
            again.release().run();
        }
        awaitNoWaiter();
    }

    /**
     * The answer to {@code waiting}, a request that waits for the projection: once its own read at registration is
     * done, the database refuses the API's reads until it is answered, so the read when its wait ends is refused.
     */
    private Reply refusedOnceWaiting(ApiClient.Request waiting, Refusal refusal) throws Exception {
        double registrations = registrationReads();
        CompletableFuture<Reply> reply = api.sendAsync(waiting);
        Awaitility.await("the wait's own read at registration").atMost(Duration.ofSeconds(30))
                .until(() -> registrationReads() > registrations);
        try (AutoCloseable refusing = refuse(refusal)) {
            assertThat(reply).as("still waiting when the database starts refusing").isNotDone();
            return reply.get(30, TimeUnit.SECONDS);
        }
    }

    /** The database refusing the API's reads of the projection until closed. */
    private AutoCloseable refuse(Refusal refusal) throws Exception {
        return switch (refusal) {
            case PROJECTION_LOCKED -> OpenTransaction.begin(DB.dataSource(),
                    tx -> tx.execute("LOCK TABLE case_assignments IN ACCESS EXCLUSIVE MODE")).awaitWork();
            case POOL_EXHAUSTED -> PoolSessions.holdEvery(pool);
        };
    }

    private UUID placementOfACaseAtRevision1() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
    }

    /** w-1's PATCH of {@code placement}, held until its case reaches revision 2, for {@code seconds} at most. */
    private ApiClient.Request heldPatch(UUID placement, int seconds) {
        return ApiClient.request("PATCH", "/placements/" + placement).token(worker)
                .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=" + seconds);
    }

    /** The row as it was, and w-1's one place among the waiters free again: its next held write waits, not 429. */
    private void assertNothingWrittenAndNoWaiterLeft(UUID placement) {
        assertThat(jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement))
                .isEqualTo(1L);
        awaitNoWaiter();
        Reply again = api.send(heldPatch(placement, 1));
        assertThat(again.status()).as("a second wait within the caller's one: " + again).isEqualTo(409);
        assertThat(again.code()).isEqualTo("PROJECTION_BEHIND");
    }

    private void awaitNoWaiter() {
        Awaitility.await("every wait given back").atMost(Duration.ofSeconds(10))
                .until(() -> waiters() == 0);
    }

    private double waiters() {
        return meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value();
    }

    private double registrationReads() {
        return meters.get(ProjectionWaits.READS_METRIC).tag("trigger", "registration").counter().count();
    }
}
