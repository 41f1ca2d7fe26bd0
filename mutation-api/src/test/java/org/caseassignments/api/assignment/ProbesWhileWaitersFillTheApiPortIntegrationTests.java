package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Waiting requests hold connections of the API's port, up to {@code server.tomcat.max-connections}; the liveness and
 * readiness probes are also served on the management port, which no waiter can fill.
 */
@ApiIntegrationTest
class ProbesWhileWaitersFillTheApiPortIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final int CONNECTIONS = 6;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("server.tomcat.max-connections", () -> String.valueOf(CONNECTIONS));
        registry.add("api.assignment.recheck-interval", () -> "1h");
        registry.add("api.assignment.max-wait", () -> "1m");
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    MeterRegistry meters;

    @Test
    void shouldAnswerTheProbesOnTheManagementPortWhileWaitersHoldEveryConnectionOfTheApiPort() throws Exception {
        // Given as many waiting reads as the API's port takes connections
        UUID caseId = Cases.assignedTo(DB.jdbc(), "w-1", "s-1", 1);
        ApiClient api = new ApiClient(port);
        List<CompletableFuture<Reply>> waiting = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            waiting.add(api.sendAsync(ApiClient.request("GET", "/cases/" + caseId + "/assignment?min_revision=2&wait=PT50S")
                    .token(TestTokens.caseworker("w-1").token())));
        }
        Awaitility.await("every connection of the API's port held by a waiter").atMost(Duration.ofSeconds(30))
                .until(() -> meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() >= CONNECTIONS);

        // When the orchestrator probes the management port
        ApiClient management = new ApiClient(managementPort);
        long started = System.nanoTime();
        Reply liveness = management.get("/actuator/health/liveness", null);
        Reply readiness = management.get("/actuator/health/readiness", null);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // Then both answer at once
        assertThat(liveness.status()).as(liveness.toString()).isEqualTo(200);
        assertThat(readiness.status()).as(readiness.toString()).isEqualTo(200);
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        new ProjectorCommits(DB).assign(caseId, "w-1", 2);
        for (CompletableFuture<Reply> reply : waiting) {
            assertThat(reply.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }
}
