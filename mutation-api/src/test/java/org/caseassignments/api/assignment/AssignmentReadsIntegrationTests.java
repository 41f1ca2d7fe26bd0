package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.SeenRevision;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Reading a case's assignment once the projection reached a revision, and as it was at a time or a revision,
 * against the real PostgreSQL; the projection is written by the projector's own guarded writer.
 */
@ApiIntegrationTest
class AssignmentReadsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "10");
        registry.add("api.assignment.recheck-interval", () -> "1h");
        // the longest wait allowed, so that on a loaded machine the first of a thousand waiters still waits when the
        // last one arrives
        registry.add("api.assignment.max-wait", () -> "1m");
        // the thousand waiters are one caller's
        registry.add("api.assignment.max-waiters-per-subject", () -> "1000");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
    private final String worker = TestTokens.caseworker("w-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldAnswerAtOnceWhenTheProjectionIsAlreadyAtTheRevision() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 4);

        Reply reply = api.get("/cases/" + caseId + "/assignment?min_revision=4&wait=PT5S", worker);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("assignment_revision").asLong()).isEqualTo(4);
    }

    @Test
    void shouldAnswerAWaitingReadWhenTheProjectorCommitsTheRevision() throws Exception {
        // Given a case at revision 1 and a read waiting for revision 2
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        CompletableFuture<Reply> waiting = api.sendAsync(ApiClient.request("GET",
                "/cases/" + caseId + "/assignment?min_revision=2&wait=PT10S").token(worker));
        awaitWaiters(1);

        // When the projector's writer commits revision 2 (the recheck is an hour: only the commit can wake it)
        transaction.executeWithoutResult(status -> writer.apply(List.of(
                AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withJurisdiction(Cases.JURISDICTION))));

        // Then the read answers with it, well before its wait ends
        Reply reply = waiting.get(5, TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("assigned_worker_sub").asString()).isEqualTo("w-2");
        assertThat(reply.json().path("assignment_revision").asLong()).isEqualTo(2);
    }

    @Test
    void shouldAnswer409ProjectionBehindWhenTheRevisionIsNotReachedInTime() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply reply = api.get("/cases/" + caseId + "/assignment?min_revision=3&wait=PT0.2S", worker);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(reply.json().path("current_revision").asLong()).isEqualTo(1);
        assertThat(reply.json().path("min_revision").asLong()).isEqualTo(3);
        assertThat(reply.json().path("request_id").asString()).isNotBlank();
        assertThat(reply.header("Retry-After")).contains("1");
    }

    @Test
    void shouldCountACaseTheProjectionDoesNotKnowAsBehind() {
        Reply reply = api.get("/cases/" + UUID.randomUUID() + "/assignment?min_revision=0", worker);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(reply.json().path("current_revision").isNull()).isTrue();
    }

    @Test
    void shouldDecideOnWhatIsFinallyReadSoAForeignCaseIsDeniedWaitedOrNot() {
        UUID texan = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");

        assertThat(api.get("/cases/" + texan + "/assignment?min_revision=5&wait=PT0.1S", worker).status()).isEqualTo(403);
        assertThat(api.get("/cases/" + texan + "/assignment?min_revision=1", worker).status()).isEqualTo(403);
        assertThat(api.get("/cases/" + texan + "/assignment/history", worker).status()).isEqualTo(403);
        assertThat(api.get("/cases/" + texan + "/assignment?as_of_revision=1", worker).status()).isEqualTo(403);
    }

    @Test
    void shouldDenyTheHistoryAndPastAssignmentsToARoleThatMayNotReadTheAssignment() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String auditor = TestTokens.subject("aud-1").roles("auditor").token();

        for (String query : List.of("/history", "?as_of_revision=1", "?as_of=2026-01-01T00:00:00Z", "?min_revision=1",
                "?min_revision=5&wait=PT0.1S")) {
            Reply reply = api.get("/cases/" + caseId + "/assignment" + query, auditor);
            assertThat(reply.status()).as(query + " " + reply).isEqualTo(403);
            assertThat(reply.body()).as(query).isEmpty();
        }
    }

    @Test
    void shouldRefuseMalformedWaitsAndTimesWith400NamingTheParameter() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String base = "/cases/" + caseId + "/assignment";
        record Bad(String query, String field) {
        }
        for (Bad bad : List.of(new Bad("?min_revision=x", "min_revision"), new Bad("?min_revision=-1", "min_revision"),
                new Bad("?min_revision=1&wait=2", "wait"), new Bad("?min_revision=1&wait=-PT1S", "wait"),
                new Bad("?min_revision=1&wait=PT61S", "wait"), new Bad("?wait=PT1S", "wait"),
                new Bad("?as_of=yesterday", "as_of"), new Bad("?as_of=%2B300000-01-01T00:00:00Z", "as_of"),
                new Bad("?as_of=-5000-01-01T00:00:00Z", "as_of"), new Bad("?as_of_revision=-2", "as_of_revision"),
                new Bad("?as_of=2026-01-01T00:00:00Z&as_of_revision=1", "as_of_revision"),
                new Bad("?as_of_revision=1&min_revision=1", "min_revision"))) {
            Reply reply = api.get(base + bad.query(), worker);
            assertThat(reply.status()).as(bad + " " + reply).isEqualTo(400);
            assertThat(reply.code()).as(bad.toString()).isEqualTo("VALIDATION_FAILED");
            assertThat(reply.json().path("errors").get(0).path("field").asString()).as(bad.toString()).isEqualTo(bad.field());
        }
        for (String cursor : List.of("nope", "cg", "ci0x")) {
            Reply reply = api.get(base + "/history?cursor=" + cursor, worker);
            assertThat(reply.status()).as(cursor + " " + reply).isEqualTo(400);
        }
        assertThat(api.get(base + "/history?limit=0", worker).status()).isEqualTo(400);
        assertThat(api.get(base + "/history?limit=501", worker).status()).isEqualTo(400);
    }

    @Test
    void shouldAnswerAThousandWaitersWithTenConnectionsAndFiftyThreads(
            @Autowired org.springframework.boot.web.server.context.WebServerApplicationContext context,
            @Autowired com.zaxxer.hikari.HikariDataSource pool) throws Exception {
        // Given an API with 10 connections and 50 request threads: Tomcat's own count of the threads running a request
        // is what tomcat.threads.busy reports, but that meter needs Tomcat's MBean registry, which Spring Boot turns off,
        // so it is read from the connector's executor. Counting the threads by name would count idle ones too, and a
        // thread's state cannot tell one parked in the executor's queue (idle) from one parked on a future (held).
        var tomcat = ((org.springframework.boot.tomcat.TomcatWebServer) context.getWebServer()).getTomcat();
        var requestThreads = (org.apache.tomcat.util.threads.ThreadPoolExecutor) tomcat.getConnector()
                .getProtocolHandler().getExecutor();
        assertThat(pool.getMaximumPoolSize()).isEqualTo(10);
        assertThat(requestThreads.getMaximumPoolSize()).isEqualTo(50);
        // A handful, not none: a sample may catch a thread that registered its waiter and has not yet returned to the
        // pool. A thread per waiter would hold all 50.
        int handful = 5;
        record Held(double waiters, int activeConnections, int pendingConnections, int busyThreads) {
        }

        // and 1,000 reads waiting for revision 2 of one case
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        List<CompletableFuture<Reply>> waiting = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            waiting.add(api.sendAsync(ApiClient.request("GET", "/cases/" + caseId + "/assignment?min_revision=2&wait=PT1M")
                    .token(worker)));
        }
        // (a waiter that held a thread or a connection would stop this at 50 or 10)
        awaitWaiters(1000);
        // The pool's live counts (the pool starts with its first request): its meters (hikaricp.connections.active,
        // .pending) show the same figures, but refreshed at most once a second, too seldom for samples 5 ms apart.
        var connections = pool.getHikariPoolMXBean();
        java.util.function.Supplier<Held> held = () -> new Held(meters.get("api.projection.waiters").gauge().value(),
                connections.getActiveConnections(), connections.getThreadsAwaitingConnection(),
                requestThreads.getActiveCount());
        // the threads that registered the last of them return to Tomcat's pool
        Awaitility.await("request threads and connections given back while 1,000 requests wait")
                .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(held::get, now -> now.busyThreads() <= handful && now.activeConnections() <= 1);

        // Then, sampled every 5 ms for half a second while all 1,000 still wait, they hold at most the one connection
        // of a check of the waiters' revisions, none waits for one, and only a handful of request threads is busy
        List<Held> samples = Collections.synchronizedList(new ArrayList<>());
        var sampled = new java.util.concurrent.CountDownLatch(100);
        var sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            sampler.scheduleAtFixedRate(() -> {
                samples.add(held.get());
                sampled.countDown();
            }, 0, 5, TimeUnit.MILLISECONDS);
            assertThat(sampled.await(10, TimeUnit.SECONDS)).as("100 samples taken").isTrue();
        } finally {
            sampler.shutdownNow();
        }
        assertThat(List.copyOf(samples)).allSatisfy(now -> {
            assertThat(now.waiters()).as("waiting").isEqualTo(1000);
            assertThat(now.activeConnections()).as("active connections").isLessThanOrEqualTo(1);
            assertThat(now.pendingConnections()).as("requests waiting for a connection").isZero();
            assertThat(now.busyThreads()).as("busy request threads").isLessThanOrEqualTo(handful);
        });

        // When revision 2 is committed
        transaction.executeWithoutResult(status -> writer.apply(List.of(
                AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withJurisdiction(Cases.JURISDICTION))));

        // Then every one of them answers 200 with it
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        for (CompletableFuture<Reply> reply : waiting) {
            assertThat(reply.get().status()).as(reply.get().toString()).isEqualTo(200);
            assertThat(reply.get().json().path("assignment_revision").asLong()).isEqualTo(2);
        }
    }

    @Test
    void shouldListEveryRevisionNewestFirstInPages() {
        UUID caseId = UUID.randomUUID();
        Instant t0 = Instant.parse("2026-02-01T09:00:00Z");
        List<SeenRevision> seen = new ArrayList<>();
        for (long revision = 0; revision < 5; revision++) {
            seen.add(new SeenRevision(AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision)
                    .withJurisdiction(Cases.JURISDICTION), t0.plus(revision, ChronoUnit.HOURS)));
        }
        Collections.reverse(seen);
        writer.apply(seen.stream().map(SeenRevision::update).toList(), seen);

        Reply first = api.get("/cases/" + caseId + "/assignment/history?limit=2", worker);
        Reply second = api.get("/cases/" + caseId + "/assignment/history?limit=2&cursor="
                + first.json().path("next_cursor").asString(), worker);
        Reply last = api.get("/cases/" + caseId + "/assignment/history?limit=2&cursor="
                + second.json().path("next_cursor").asString(), worker);

        assertThat(revisions(first)).containsExactly(4L, 3L);
        assertThat(revisions(second)).containsExactly(2L, 1L);
        assertThat(revisions(last)).containsExactly(0L);
        assertThat(last.json().path("next_cursor").isNull()).isTrue();
        JsonNode newest = first.json().path("items").get(0);
        assertThat(newest.path("assigned_worker_sub").asString()).isEqualTo("w-4");
        assertThat(Instant.parse(newest.path("occurred_at").asString())).isEqualTo(t0.plus(4, ChronoUnit.HOURS));
    }

    @Test
    void shouldAnswerTheEntryInForceAtARevisionOrATimeAndNotFoundBeforeTheFirst() {
        // Given a case whose history holds revisions 2, 3 and 5 (none below 2, none at 4)
        UUID caseId = UUID.randomUUID();
        Instant t0 = Instant.parse("2026-03-01T09:00:00Z");
        List<SeenRevision> seen = new ArrayList<>();
        for (long revision : new long[]{2, 3, 5}) {
            seen.add(new SeenRevision(AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision)
                    .withJurisdiction(Cases.JURISDICTION), t0.plus(revision, ChronoUnit.HOURS)));
        }
        writer.apply(seen.stream().map(SeenRevision::update).toList(), seen);
        String base = "/cases/" + caseId + "/assignment";

        // Then a revision answers itself or the highest below it; nothing below the first is in force
        record Asked(String query, String answer) {
        }
        for (Asked asked : List.of(new Asked("?as_of_revision=0", null), new Asked("?as_of_revision=1", null),
                new Asked("?as_of_revision=2", "w-2@2"), new Asked("?as_of_revision=4", "w-3@3"),
                new Asked("?as_of_revision=5", "w-5@5"), new Asked("?as_of_revision=99", "w-5@5"),
                new Asked("?as_of=" + t0.plus(2, ChronoUnit.HOURS).minusMillis(1), null),
                new Asked("?as_of=" + t0.plus(2, ChronoUnit.HOURS), "w-2@2"),
                new Asked("?as_of=" + t0.plus(4, ChronoUnit.HOURS), "w-3@3"),
                new Asked("?as_of=9999-12-31T23:59:59Z", "w-5@5"))) {
            Reply reply = api.get(base + asked.query(), worker);
            if (asked.answer() == null) {
                assertThat(reply.status()).as(asked + " " + reply).isEqualTo(404);
                assertThat(reply.code()).as(asked.toString()).isEqualTo("NOT_FOUND");
            } else {
                assertThat(reply.status()).as(asked + " " + reply).isEqualTo(200);
                assertThat(reply.json().path("assigned_worker_sub").asString() + "@"
                        + reply.json().path("assignment_revision").asLong()).as(asked.toString()).isEqualTo(asked.answer());
            }
        }
    }

    @Test
    void shouldAnswerTheAssignmentInForceAtRandomTimesAsTheOracleDoes() {
        // Given 30 cases whose revisions occurred at times that may run backwards (clocks of the case service's
        // nodes), some sent twice with another payload and time, delivered reordered, duplicated and in random
        // batches, then replayed
        Random random = new Random(7);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        List<UUID> cases = new ArrayList<>();
        List<SeenRevision> input = new ArrayList<>();
        for (int c = 0; c < 30; c++) {
            UUID caseId = UUID.randomUUID();
            Instant at = start;
            int revisions = 1 + random.nextInt(6);
            for (long revision = 0; revision < revisions; revision++) {
                do {
                    at = at.plus(random.nextInt(120) - 48, ChronoUnit.HOURS);
                    input.add(new SeenRevision(AssignmentUpdate.changed(caseId, "w-" + random.nextInt(20), "s", revision)
                            .withJurisdiction(Cases.JURISDICTION), at));
                } while (random.nextInt(5) == 0);
            }
            cases.add(caseId);
        }
        List<SeenRevision> delivered = new ArrayList<>(input);
        for (int d = 0; d < input.size() / 4; d++) {
            delivered.add(input.get(random.nextInt(input.size())));
        }
        Collections.shuffle(delivered, random);
        List<SeenRevision> replayed = new ArrayList<>(input);
        Collections.shuffle(replayed, random);
        delivered.addAll(replayed);
        for (int from = 0; from < delivered.size(); ) {
            int to = Math.min(delivered.size(), from + 1 + random.nextInt(10));
            List<SeenRevision> batch = delivered.subList(from, to);
            writer.apply(batch.stream().map(SeenRevision::update).toList(), batch);
            from = to;
        }
        // The oracle keeps, per case and revision, what the writer received first
        Map<UUID, TreeMap<Long, SeenRevision>> kept = new HashMap<>();
        delivered.forEach(seen -> kept.computeIfAbsent(seen.update().caseId(), id -> new TreeMap<>())
                .putIfAbsent(seen.update().revision(), seen));

        // When each case is asked at random times, then the answer is the oracle's: the highest revision that had
        // occurred by then, which is not always the one that occurred last
        int latestIsNotHighest = 0;
        for (int q = 0; q < 150; q++) {
            UUID caseId = cases.get(random.nextInt(cases.size()));
            Instant time = start.plus(random.nextInt(8 * 72) - 48, ChronoUnit.HOURS).plusSeconds(random.nextInt(3600));
            SeenRevision inForce = kept.get(caseId).descendingMap().values().stream()
                    .filter(seen -> !seen.occurredAt().isAfter(time)).findFirst().orElse(null);
            SeenRevision latest = kept.get(caseId).values().stream().filter(seen -> !seen.occurredAt().isAfter(time))
                    .max(java.util.Comparator.comparing(SeenRevision::occurredAt)).orElse(null);
            latestIsNotHighest += inForce != latest ? 1 : 0;
            Reply reply = api.get("/cases/" + caseId + "/assignment?as_of=" + time, worker);
            if (inForce == null) {
                assertThat(reply.status()).as(time + " " + reply).isEqualTo(404);
                assertThat(reply.code()).isEqualTo("NOT_FOUND");
            } else {
                assertThat(reply.status()).as(time + " " + reply).isEqualTo(200);
                assertThat(reply.json().path("assigned_worker_sub").asString() + "@"
                        + reply.json().path("assignment_revision").asLong()).as("as_of " + time)
                        .isEqualTo(inForce.update().assignedWorkerSub() + "@" + inForce.update().revision());
            }
        }
        assertThat(latestIsNotHighest).as("queries where the two rules differ").isPositive();
    }

    private static List<Long> revisions(Reply page) {
        List<Long> revisions = new ArrayList<>();
        page.json().path("items").forEach(item -> revisions.add(item.path("assignment_revision").asLong()));
        return revisions;
    }

    private void awaitWaiters(int count) {
        Awaitility.await("requests waiting for the projection").atMost(Duration.ofSeconds(50))
                .until(() -> meters.get("api.projection.waiters").gauge().value() >= count);
    }
}
