package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.DatabaseProxy;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The connection that listens for the projector's commits hangs while requests wait. Dropped, with every new
 * connection to the database accepted and never answered: waiters are still answered within about the recheck
 * interval, because the recheck runs on its own thread. Frozen — nothing comes back, nothing is closed — while the
 * pool sets a long socket timeout of its own: the listener's probe fails within its own timeout, it listens again
 * on a new connection, and the projector's notifications answer waiters again. The API reaches PostgreSQL through a
 * proxy the test controls.
 */
@ApiIntegrationTest
class ProjectionListenerHangIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final DatabaseProxy PROXY = DatabaseProxy.inFrontOf(DB);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", PROXY::jdbcUrl);
        // the pool opens all its connections at the start, before the proxy stalls new ones
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
        registry.add("spring.datasource.hikari.minimum-idle", () -> "4");
        // longer than any wait here: only the listener's own timeout can notice its socket froze
        registry.add("spring.datasource.hikari.data-source-properties.socketTimeout", () -> "120");
        registry.add("api.assignment.recheck-interval", () -> "500ms");
        registry.add("api.assignment.listener-timeout", () -> "2s");
        registry.add("api.assignment.max-wait", () -> "30s");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource pool;

    private final JdbcTemplate jdbc = DB.jdbc();

    @AfterAll
    static void closeProxy() {
        PROXY.close();
    }

    @Test
    void shouldAnswerWaitersWithinTheRecheckIntervalWhileTheListenersConnectionHangs() throws Exception {
        // Given the pool's connections open, the listener's connection cut and every new connection hanging
        ApiClient api = new ApiClient(port);
        new JdbcTemplate(pool).queryForObject("SELECT 1", Integer.class);
        Awaitility.await("the pool's four connections").atMost(Duration.ofSeconds(30))
                .until(() -> ((HikariDataSource) pool).getHikariPoolMXBean().getTotalConnections() == 4);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        PROXY.stallNewConnections();
        try {
            PROXY.cutListeners();
            Awaitility.await("the listener stuck opening a connection again").atMost(Duration.ofSeconds(30))
                    .until(() -> PROXY.stalledConnections() >= 1);

            // When a read waits for revision 2 and the projector commits it (the notification is lost with the listener)
            // Then the recheck answers it within a few of its intervals, long before its wait ends
            assertAnsweredWithinSecondsOnceRevisionTwoCommits(api, caseId);
        } finally {
            PROXY.forwardNewConnections();
        }
    }

    @Test
    void shouldListenAgainOnANewConnectionAndHearTheProjectorsCommitsOnceTheListenersSocketFreezes() throws Exception {
        // Given the listener listening, and its socket frozen
        ApiClient api = new ApiClient(port);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        Awaitility.await("the listener listening").atMost(Duration.ofSeconds(30))
                .until(() -> PROXY.forwardedListeners() >= 1);
        assertThat(PROXY.freezeListeners()).isPositive();

        // When it has listened again on a new connection
        Awaitility.await("the listener listening again").atMost(Duration.ofSeconds(20))
                .until(() -> PROXY.forwardedListeners() >= 1);

        // and a read waits for revision 2, which the projector then commits
        // Then the read is answered, and the listener heard the commit
        double heard = meters.get(ProjectionWaits.READS_METRIC).tag("trigger", "commit").counter().count();
        assertAnsweredWithinSecondsOnceRevisionTwoCommits(api, caseId);
        Awaitility.await("the commit heard").atMost(Duration.ofSeconds(5))
                .until(() -> meters.get(ProjectionWaits.READS_METRIC).tag("trigger", "commit").counter().count() > heard);
    }

    /** A read waiting for revision 2 of the case, the projector's commit of it, and the read's answer within 5 s. */
    private void assertAnsweredWithinSecondsOnceRevisionTwoCommits(ApiClient api, UUID caseId) throws Exception {
        CompletableFuture<Reply> waiting = api.sendAsync(ApiClient.request("GET",
                "/cases/" + caseId + "/assignment?min_revision=2&wait=PT25S").token(TestTokens.caseworker("w-1").token()));
        Awaitility.await("the read waiting").atMost(Duration.ofSeconds(10))
                .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() >= 1);
        new ProjectorCommits(DB).assign(caseId, "w-1", 2);
        Reply reply = waiting.get(5, TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("assignment_revision").asLong()).isEqualTo(2);
    }
}
