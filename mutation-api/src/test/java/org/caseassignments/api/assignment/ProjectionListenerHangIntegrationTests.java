package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.StallingProxy;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The connection that listens for the projector's commits hangs — dropped, and every new connection to the database
 * accepted and never answered — while requests wait: they are still answered within about the recheck interval,
 * because the recheck runs on its own thread. The API reaches PostgreSQL through a proxy the test controls.
 */
@ApiIntegrationTest
class ProjectionListenerHangIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final StallingProxy PROXY = proxyTo(DB.jdbcUrl());

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DB.jdbcUrl().replaceFirst("//[^/]+/", "//localhost:" + PROXY.port() + "/"));
        // the pool opens all its connections at the start, before the proxy stalls new ones
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
        registry.add("spring.datasource.hikari.minimum-idle", () -> "4");
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
            CompletableFuture<Reply> waiting = api.sendAsync(ApiClient.request("GET",
                    "/cases/" + caseId + "/assignment?min_revision=2&wait=PT25S").token(TestTokens.caseworker("w-1").token()));
            Awaitility.await("the read waiting").atMost(Duration.ofSeconds(10))
                    .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() >= 1);
            new ProjectorCommits(DB).assign(caseId, "w-1", 2);

            // Then the recheck answers it within a few of its intervals, long before its wait ends
            Reply reply = waiting.get(5, TimeUnit.SECONDS);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.json().path("assignment_revision").asLong()).isEqualTo(2);
        } finally {
            PROXY.forwardNewConnections();
        }
    }

    private static StallingProxy proxyTo(String jdbcUrl) {
        Matcher address = Pattern.compile("//([^:/]+):(\\d+)/").matcher(jdbcUrl);
        if (!address.find()) {
            throw new IllegalStateException("no host and port in " + jdbcUrl);
        }
        try {
            return new StallingProxy(address.group(1), Integer.parseInt(address.group(2)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
