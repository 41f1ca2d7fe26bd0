package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.caseassignments.testkit.TestNetwork;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.caseassignments.projector.testsupport.ProjectorInstance;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ProjectorApplicationIntegrationTests {

    static final TestDatabase DB = readOnlyByDefault(TestDatabase.empty());
    static final String EVENTS = TestKafka.uniqueTopic("case.events");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        DB.register(registry);
        // The pool's server options lift the database's read-only default, so the migrations at startup succeed only
        // if their connection carries the pool's connection properties.
        registry.add("spring.datasource.hikari.data-source-properties.options", () -> "-c default_transaction_read_only=off");
        registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
        registry.add("projector.topics.events", () -> EVENTS);
        registry.add("projector.topics.assignments", () -> EVENTS + ".assignments");
        registry.add("projector.topics.dead-letter", () -> EVENTS + ".dlq");
        registry.add("projector.application-id", ProjectorInstance::uniqueApplicationId);
        registry.add("projector.streams.state-dir", () -> System.getProperty("java.io.tmpdir") + "/projector-smoke-"
                + EVENTS);
    }

    private static TestDatabase readOnlyByDefault(TestDatabase db) {
        db.jdbc().execute("ALTER DATABASE " + db.name() + " SET default_transaction_read_only = on");
        return db;
    }

    @Autowired
    JdbcTemplate jdbc;

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int port;

    @Test
    void shouldStartMigrateTheDatabaseWithThePoolsConnectionPropertiesCreateItsTopicsAndReportHealthy() throws Exception {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Integer.class))
                .isPositive();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Integer.class)).isZero();

        try (Admin admin = Admin.create(Map.of("bootstrap.servers", TestKafka.bootstrapServers()))) {
            Set<String> topics = admin.listTopics().names().get();
            assertThat(topics).contains(EVENTS, EVENTS + ".dlq");
            assertThat(topics).as("published only with projector.publish-assignments").doesNotContain(EVENTS + ".assignments");
        }

        String health = RestClient.create("http://localhost:" + managementPort).get().uri("/actuator/health")
                .retrieve().body(String.class);
        assertThat(health).contains("\"status\":\"UP\"");
    }

    @Test
    void shouldServeProbesOnItsPortAndMetricsOnlyOnTheManagementPort() {
        RestClient server = RestClient.create("http://localhost:" + port);
        RestClient management = RestClient.create("http://localhost:" + managementPort);

        assertThat(managementPort).isNotEqualTo(port);
        assertThat(status(server, "/livez")).isEqualTo(200);
        for (String endpoint : new String[] {"/actuator/metrics", "/actuator/prometheus"}) {
            assertThat(status(server, endpoint)).as("%s on the projector's own port", endpoint).isEqualTo(404);
            assertThat(status(management, endpoint)).as("%s on the management port", endpoint).isEqualTo(200);
        }
    }

    @Test
    void shouldShowOnlyTheStatusOnThePublicProbesAndTheDetailsOnTheManagementPort() {
        RestClient server = RestClient.create("http://localhost:" + port);
        RestClient management = RestClient.create("http://localhost:" + managementPort);

        for (String probe : new String[] {"/readyz", "/livez"}) {
            String answer = server.get().uri(probe).retrieve().body(String.class);
            assertThat(answer).as("%s on the public port", probe).isEqualTo("{\"status\":\"UP\"}");
        }
        assertThat(management.get().uri("/actuator/health").retrieve().body(String.class))
                .contains("projectionCommits", "projectionProgress", "details");
    }

    @Test
    void shouldServeTheManagementPortOnTheLoopbackAddressOnlyByDefault() {
        InetAddress elsewhere = TestNetwork.nonLoopbackAddress();

        assertThat(TestNetwork.connects(InetAddress.getLoopbackAddress(), managementPort)).isTrue();
        assertThat(TestNetwork.connects(elsewhere, managementPort)).as("management port on %s", elsewhere).isFalse();
        assertThat(TestNetwork.connects(elsewhere, port)).as("probes' port on %s", elsewhere).isTrue();
    }

    private static int status(RestClient client, String path) {
        Integer status = client.get().uri(path).exchange((request, response) -> response.getStatusCode().value());
        return status;
    }
}
