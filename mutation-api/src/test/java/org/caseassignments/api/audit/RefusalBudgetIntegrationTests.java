package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Fifty clients with one token (no roles at all) are refused for {@code -Drefusal.flood.seconds} (default
 * {@value #DEFAULT_FLOOD_SECONDS}; the property shows the same with 60) while the refusal writer cannot write
 * (the audit table is locked, so nothing leaves the queue): the flooding subject gets its budget of records
 * and one "N more refusals" summary, and a second token's refusals — ordinary ones and probes (reads and writes) of
 * another jurisdiction's records — are all stored, none pushed out.
 */
@ApiIntegrationTest
class RefusalBudgetIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final long DEFAULT_FLOOD_SECONDS = 5;
    private static final Duration FLOOD = Duration.ofSeconds(Long.getLong("refusal.flood.seconds", DEFAULT_FLOOD_SECONDS));
    private static final int CLIENTS = 50;
    private static final int QUEUE = 40;
    private static final int BUDGET = 10;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.audit.refusal-queue-capacity", () -> String.valueOf(QUEUE));
        registry.add("api.audit.refusal-batch-size", () -> "4");
        registry.add("api.audit.refusal-budget", () -> String.valueOf(BUDGET));
        // one window spans the whole flood, so the flooding subject's summary comes once the flood is over
        registry.add("api.audit.refusal-budget-window", () -> FLOOD.plusSeconds(3).toMillis() + "ms");
        registry.add("server.tomcat.threads.max", () -> "60");
        registry.add("logging.level." + RefusalWriter.FALLBACK_LOG, () -> "ERROR");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);

    @Test
    void shouldNotLetOneTokensFloodOfRefusalsPushOutAnotherTokensRefusals() throws Exception {
        ApiClient api = new ApiClient(port);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String flooder = TestTokens.subject("flooder").token();
        String other = TestTokens.caseworker("w-other").token();
        String prober = TestTokens.admin("tx-prober").jurisdiction("texas").token();
        AtomicInteger flooded = new AtomicInteger();
        List<Reply> others = new ArrayList<>();

        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (OpenTransaction lock = OpenTransaction.begin(DB.dataSource(),
                db -> db.execute("LOCK TABLE audit_records IN EXCLUSIVE MODE")).awaitWork()) {
            Instant end = Instant.now().plus(FLOOD);
            List<Future<?>> flood = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                flood.add(clients.submit(() -> {
                    while (Instant.now().isBefore(end)) {
                        Reply refused = api.post("/cases/" + caseId + "/kinship-options", flooder,
                                "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}");
                        assertThat(refused.status()).isEqualTo(403);
                        flooded.incrementAndGet();
                    }
                    return null;
                }));
            }
            await().atMost(FLOOD.plusSeconds(30)).alias("the flood to exceed the whole queue")
                    .until(() -> flooded.get() > 2 * QUEUE);
            for (int i = 0; i < 3; i++) {
                others.add(api.patch("/placements/" + placement, other, TestETags.placement(placement, 1),
                        "{\"status\": \"ACTIVE\"}"));
                others.add(api.get("/placements/" + placement, prober));
                others.add(api.patch("/placements/" + placement, prober, TestETags.placement(placement, 1),
                        "{\"status\": \"ACTIVE\"}"));
            }
            for (Future<?> client : flood) {
                client.get(FLOOD.plusSeconds(60).toSeconds(), TimeUnit.SECONDS);
            }
            assertThat(backends.blockedBy(lock.pid())).as("the writer waited for the table all along").hasSize(1);
            lock.commit();
        } finally {
            clients.shutdownNow();
        }

        assertThat(others).extracting(Reply::status).containsOnly(403);
        await().atMost(Duration.ofSeconds(30)).alias("the second token's writes' refusals stored")
                .until(() -> records("w-other") + records("tx-prober") == 9);
        assertThat(records("w-other")).isEqualTo(3);
        assertThat(records("tx-prober")).as("the GET and PATCH probes of a Georgia record").isEqualTo(6);
        Map<String, Object> summary = await().atMost(FLOOD.plusSeconds(30)).alias("the flooder's summary")
                .until(() -> jdbc.queryForList("SELECT * FROM audit_records WHERE caller_sub = 'flooder' AND more_refusals IS NOT NULL"),
                        found -> !found.isEmpty()).get(0);
        assertThat(records("flooder") - 1).as("one by one, the budget").isEqualTo(BUDGET);
        assertThat(summary).containsEntry("more_refusals", flooded.get() - BUDGET).containsEntry("status", 403)
                .containsEntry("action", "create");
    }

    private long records(String sub) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM audit_records WHERE caller_sub = ?", Long.class, sub);
        return count == null ? 0 : count;
    }
}
