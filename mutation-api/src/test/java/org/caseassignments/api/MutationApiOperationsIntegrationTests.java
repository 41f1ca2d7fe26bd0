package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.OpsDefinitions;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * What an operator is given holds for the API as it runs: after a short realistic session (creates, a retried
 * create, reads, updates, a stale and a missing If-Match, a denial), every metric the API's dashboard and
 * alerting rules under {@code ops/} name is in its {@code /actuator/prometheus} scrape.
 */
@ApiIntegrationTest
class MutationApiOperationsIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();

    @Autowired
    Environment environment;

    @Test
    void shouldExposeEveryMetricItsDashboardAndAlertsNameAfterARealisticSession() {
        // Given a session like production's
        ApiClient api = new ApiClient(port("local.server.port"));
        String worker = TestTokens.caseworker("w-1").token();
        UUID caseId = Cases.assignedTo(DB.jdbc(), "w-1", "s-1", 1);
        String inAHome = "{\"foster_home_id\": \"" + Rows.fosterHome().insert(DB.jdbc()) + "\"}";
        Reply created = api.send(ApiClient.request("POST", "/cases/" + caseId + "/placements").token(worker)
                .header("Idempotency-Key", "k-1").json(inAHome));
        Reply retried = api.send(ApiClient.request("POST", "/cases/" + caseId + "/placements").token(worker)
                .header("Idempotency-Key", "k-1").json(inAHome));
        String path = "/placements/" + created.text("id");
        Reply read = api.get(path, worker);
        Reply activated = api.patch(path, worker, read.etag(), "{\"status\": \"ACTIVE\"}");
        Reply stale = api.patch(path, worker, read.etag(), "{\"status\": \"ENDED\"}");
        Reply unconditional = api.patch(path, worker, null, "{\"status\": \"ENDED\"}");
        Reply denied = api.get(path, TestTokens.caseworker("w-other").token());
        Reply assignment = api.get("/cases/" + caseId + "/assignment", worker);
        assertThat(new int[] {created.status(), retried.status(), read.status(), activated.status(), stale.status(),
                unconditional.status(), denied.status(), assignment.status()})
                .containsExactly(201, 201, 200, 200, 412, 428, 403, 200);

        // When it is scraped, then nothing the dashboard or the alerts name is missing
        Set<String> named = OpsDefinitions.metricNames("mutation-api");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Set<String> missing = new TreeSet<>(named);
            missing.removeAll(OpsDefinitions.exposed(scrape()));
            assertThat(missing).as("named by ops/grafana/mutation-api.json or ops/prometheus/mutation-api.rules.yml, "
                    + "but not in /actuator/prometheus").isEmpty();
        });
        assertThat(named).contains("api_projection_age_seconds_bucket", "audit_partitions_ahead_months",
                "api_stale_authorizations_total", "cache_gets_total");
        // and the new meters count what happened: two decisions read the projection (the retry replays the first
        // create, which read it too), one 412, and the three months the partition check keeps ahead
        String scrape = scrape();
        assertThat(scrape).containsPattern("(?m)^api_projection_age_seconds_count\\{[^}]*\\} 3$")
                .containsPattern("(?m)^api_refusals_total\\{[^}]*reason=\"precondition_failed\"[^}]*\\} 1\\.0$")
                .containsPattern("(?m)^audit_partitions_ahead_months\\{[^}]*\\} 3\\.0$");
    }

    private String scrape() {
        // the management port when it is a separate one, the application's port otherwise
        ApiClient management = new ApiClient(port("local.management.port"));
        Reply scrape = management.get("/actuator/prometheus", TestTokens.admin("operator").token());
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
        return scrape.body();
    }

    private int port(String property) {
        return Integer.parseInt(environment.getProperty(property, environment.getProperty("local.server.port")));
    }
}
