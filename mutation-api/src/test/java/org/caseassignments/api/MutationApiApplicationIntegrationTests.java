package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

@ApiIntegrationTest
class MutationApiApplicationIntegrationTests {

    static final TestDatabase DB = readOnlyByDefault(TestDatabase.empty());

    /**
     * The pool's server options lift the database's read-only default, so the migrations at startup succeed only if
     * their connection carries the pool's connection properties; and they end a session idle in a transaction after
     * 1 s, while a migration of the test's own runs 3 s and the migration lock's transaction waits idle for it on
     * another connection: the start succeeds only if the migrations lift that limit.
     */
    @DynamicPropertySource
    static void poolOptions(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.data-source-properties.options",
                () -> "-c default_transaction_read_only=off -c idle_in_transaction_session_timeout=1s");
        registry.add("spring.flyway.locations", () -> "classpath:db/migration,classpath:db/slow-migration");
    }

    private static TestDatabase readOnlyByDefault(TestDatabase db) {
        db.jdbc().execute("ALTER DATABASE " + db.name() + " SET default_transaction_read_only = on");
        return db;
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldStartMigrateTheDatabaseWithThePoolsConnectionPropertiesAndReportHealthy() {
        // read as the owner: the API's own role has no business in the migration history
        assertThat(DB.jdbc().queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Integer.class))
                .isPositive();
        assertThat(DB.jdbc().queryForObject(
                "SELECT success FROM flyway_schema_history WHERE description = 'Outlast the idle in transaction timeout'",
                Boolean.class)).as("the migration longer than the idle-in-transaction limit").isTrue();

        Reply readiness = api.get("/readyz", null);
        Reply liveness = api.get("/livez", null);
        Reply health = new ApiClient(managementPort).get("/actuator/health", null);

        assertThat(readiness.status()).as("probes stay on the serving port, without a token: " + readiness).isEqualTo(200);
        assertThat(readiness.body()).contains("\"status\":\"UP\"");
        assertThat(liveness.status()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void shouldServeMetricsAndInfoOnlyOnTheManagementPort() {
        String anyValidToken = TestTokens.caseworker("w-1").jurisdiction("texas").token();
        ApiClient management = new ApiClient(managementPort);

        for (String endpoint : List.of("/actuator/metrics", "/actuator/prometheus", "/actuator/info")) {
            Reply onTheApiPort = api.get(endpoint, anyValidToken);
            assertThat(onTheApiPort.status()).as("any token of any role on the API port: " + onTheApiPort).isEqualTo(404);
            assertThat(management.get(endpoint, null).status()).as("the internal port, for operators: " + endpoint)
                    .isEqualTo(200);
        }
        assertThat(managementPort).isNotEqualTo(port);
        assertThat(management.get("/actuator/prometheus", null).body()).contains("http_server_requests");
    }

    @Test
    void shouldServeTheOpenApiDescriptionWithoutATokenWithSnakeCaseFieldsEverywhere() {
        Reply docs = api.get("/v3/api-docs", null);

        assertThat(docs.status()).as(docs.toString()).isEqualTo(200);
        JsonNode openApi = docs.json();
        assertThat(openApi.path("paths").propertyNames()).contains("/placements/{id}", "/cases/{caseId}/placements",
                "/kinship-options/{id}", "/cases/{caseId}/kinship-options", "/foster-homes", "/foster-homes/{id}",
                "/cases/{caseId}/assignment");
        List<String> properties = new ArrayList<>();
        openApi.path("components").path("schemas").forEach(schema -> properties.addAll(schema.path("properties").propertyNames()));
        assertThat(properties).contains("case_id", "assigned_worker_sub", "supervisor_sub", "license_number",
                "relative_name", "foster_home_id");
        assertThat(properties).allSatisfy(name -> assertThat(name).matches("[a-z0-9_]+"));
        assertThat(api.get("/swagger-ui.html", null).status()).isIn(200, 302);
    }

    @Test
    void shouldShowTheRulesetVersionServingEachJurisdiction() {
        Reply info = new ApiClient(managementPort).get("/actuator/info", null);

        assertThat(info.json().path("rulesets").path("georgia").asString()).isEqualTo("1.3.0");
        assertThat(info.json().path("rulesets").path("texas").asString()).isEqualTo("1.3.0");
    }

}
