package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MutationApiApplicationIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestApplication.register(registry, DB);
    }

    @Autowired
    JdbcTemplate jdbc;

    @LocalServerPort
    int port;

    @Test
    void shouldStartMigrateTheDatabaseAndReportHealthy() {
        assertThat(jdbc.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Integer.class))
                .isPositive();

        String health = RestClient.create("http://localhost:" + port).get().uri("/actuator/health")
                .retrieve().body(String.class);

        assertThat(health).contains("\"status\":\"UP\"");
    }
}
