package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A flood of refusals while their writer cannot write at all (another transaction holds the audit table
 * locked): every refused request still answers at once, none holds a connection of the request pool
 * (six connections, against forty times as many refusals), the queue drops what it has no room for and
 * counts it, and once the lock goes, the records the queue kept are stored and the next write succeeds.
 */
@ApiIntegrationTest
class RefusalFloodIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final int QUEUE = 8;
    private static final int FLOOD = 240;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.audit.refusal-queue-capacity", () -> String.valueOf(QUEUE));
        registry.add("api.audit.refusal-batch-size", () -> "4");
        // one subject floods here; its budget (RefusalBudgetIntegrationTests) is not what this test is about
        registry.add("api.audit.refusal-budget", () -> String.valueOf(FLOOD * 10));
        // each dropped record is one WARN line by design; two hundred of them say nothing here
        registry.add("logging.level." + RefusalWriter.FALLBACK_LOG, () -> "ERROR");
    }

    @LocalServerPort
    int port;

    @Autowired
    DataSource requestPool;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);

    @Test
    void shouldAnswerAFloodOfRefusalsWithoutHoldingTheRequestPoolWhileTheirWriterIsBlocked() throws Exception {
        ApiClient api = new ApiClient(port);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).rowVersion(2)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String token = TestTokens.caseworker("w-1").token();
        String stale = TestETags.placement(placement, 1);
        double droppedBefore = dropped();

        List<Reply> answers = new ArrayList<>();
        try (OpenTransaction lock = OpenTransaction.begin(DB.dataSource(),
                other -> other.execute("LOCK TABLE audit_records IN EXCLUSIVE MODE")).awaitWork()) {
            answers.add(api.patch("/placements/" + placement, token, stale, "{\"status\": \"ACTIVE\"}"));
            List<Integer> blocked = backends.awaitBlockedBy(lock.pid());
            assertThat(applicationNames(blocked)).as("only the refusal writer waits for the audit table")
                    .containsOnly(RefusalWriter.POOL_NAME);

            List<CompletableFuture<Reply>> flood = new ArrayList<>();
            for (int i = 1; i < FLOOD; i++) {
                flood.add(api.sendAsync(ApiClient.request("PATCH", "/placements/" + placement).token(token)
                        .ifMatch(stale).json("{\"status\": \"ACTIVE\"}")));
            }
            for (CompletableFuture<Reply> reply : flood) {
                answers.add(reply.get(30, TimeUnit.SECONDS));
            }

            assertThat(answers).extracting(Reply::status).containsOnly(412);
            HikariDataSource pool = (HikariDataSource) requestPool;
            assertThat(pool.getHikariPoolMXBean().getActiveConnections())
                    .as("no refused request holds a request-pool connection while its record waits").isZero();
            assertThat(backends.blockedBy(lock.pid())).as("still only the writer waits").hasSize(1);
            assertThat(dropped() - droppedBefore).as("what the queue had no room for is counted")
                    .isGreaterThanOrEqualTo(FLOOD - QUEUE - 4.0);
            lock.commit();
        }

        await().atMost(Duration.ofSeconds(30)).alias("every refusal stored or counted as dropped")
                .until(() -> stored(placement) + (dropped() - droppedBefore) >= FLOOD);
        assertThat(stored(placement) + (dropped() - droppedBefore)).isEqualTo(FLOOD);
        assertThat(stored(placement)).isBetween(1L, (long) QUEUE + 4);

        Reply written = api.patch("/placements/" + placement, token, TestETags.placement(placement, 2),
                "{\"status\": \"ACTIVE\"}");
        assertThat(written.status()).as(written.toString()).isEqualTo(200);
    }

    private List<String> applicationNames(List<Integer> pids) {
        return pids.stream().map(pid -> jdbc.queryForObject(
                "SELECT application_name FROM pg_stat_activity WHERE pid = ?", String.class, pid)).toList();
    }

    private long stored(UUID placement) {
        Long count = jdbc.queryForObject("""
                SELECT count(*) FROM audit_records WHERE resource_id = ? AND outcome = 'REFUSED' AND status = 412""",
                Long.class, placement);
        return count == null ? 0 : count;
    }

    private double dropped() {
        return meters.find(RefusalWriter.DROPPED_METRIC).counters().stream().mapToDouble(Counter::count).sum();
    }
}
