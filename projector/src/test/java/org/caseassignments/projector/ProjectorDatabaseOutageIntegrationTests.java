package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * PostgreSQL refusing connections: the projector retries, reports DOWN, commits no offset, is not ready
 * once a task could not commit for longer than the bound, and resumes (and is ready again) by itself.
 */
class ProjectorDatabaseOutageIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMIT_BOUND = Duration.ofSeconds(3);

    private static ProjectorInstance projector;
    private static String group;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() {
        String applicationId = ProjectorInstance.uniqueApplicationId();
        group = applicationId;
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, applicationId);
        properties.put("spring.datasource.hikari.connection-timeout", "500");
        properties.put("projector.health.max-commit-delay", COMMIT_BOUND.toMillis() + "ms");
        projector = ProjectorInstance.start(properties);
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
    }

    @Test
    void shouldRetryReportDownAndCommitNothingWhileTheDatabaseRefusesConnectionsThenResumeByItself() throws Exception {
        UUID before = UUID.randomUUID();
        UUID during = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher();
             // The server's maintenance database: a session cannot lock others out of its own database.
             Connection admin = DriverManager.getConnection(DB.jdbcUrl().replace("/" + DB.name(), "/postgres"),
                     DB.username(), DB.password())) {
            // Given a projector that has applied and committed what it received so far
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(before).build()));
            await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 3)
                    && !KafkaOffsets.committed(group, TOPICS.events()).isEmpty());
            Map<Integer, Long> committedBefore = KafkaOffsets.committed(group, TOPICS.events());
            assertThat(projector.health("readiness")).isEqualTo(Status.UP);

            // When PostgreSQL refuses every new connection to the database and drops the open ones
            refuseConnections(admin, true);
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(during).worker("w-0").build(),
                    CaseEvents.changed(during, 1).worker("w-1").build()));

            // Then the projector keeps retrying and reports DOWN, and no input offset moves past the
            // unapplied events
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(projector.health("projectionSink")).isEqualTo(Status.DOWN);
                assertThat(failedAttempts()).isGreaterThanOrEqualTo(3);
            });
            assertThat(projector.health()).isEqualTo(Status.DOWN);
            // and once a task has held uncommitted events for longer than the bound, it is not ready, saying why
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(projector.health("readiness")).isEqualTo(Status.DOWN);
                assertThat(commitsDetail("reason")).asString().contains("has not committed its input");
            });
            Map<Integer, Long> end = KafkaOffsets.end(TOPICS.events(), 3);
            assertThat(end.values().stream().mapToLong(Long::longValue).sum())
                    .isGreaterThan(committedBefore.values().stream().mapToLong(Long::longValue).sum());
            assertThat(KafkaOffsets.committed(group, TOPICS.events())).isEqualTo(committedBefore);

            refuseConnections(admin, false);
        }

        // And once PostgreSQL accepts connections again it applies them and reports UP, by itself
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> assertThat(jdbc.queryForObject(
                "SELECT assignment_revision FROM case_assignments WHERE case_id = ?", Long.class, during)).isEqualTo(1L));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(projector.health("projectionSink")).isEqualTo(Status.UP);
            assertThat(projector.health("readiness")).isEqualTo(Status.UP);
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 3)).isTrue();
        });
    }

    private static void refuseConnections(Connection admin, boolean refuse) throws Exception {
        try (Statement statement = admin.createStatement()) {
            statement.execute("ALTER DATABASE " + DB.name() + " ALLOW_CONNECTIONS " + !refuse);
            if (refuse) {
                statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                        + DB.name() + "'");
            }
        }
    }

    private static Object commitsDetail(String name) {
        var health = (IndicatedHealthDescriptor) projector.bean(HealthEndpoint.class).healthForPath("projectionCommits");
        return health.getDetails().get(name);
    }

    private static int failedAttempts() {
        var health = (IndicatedHealthDescriptor) projector.bean(HealthEndpoint.class).healthForPath("projectionSink");
        Object attempts = health.getDetails().get("failedAttempts");
        return attempts == null ? 0 : (Integer) attempts;
    }
}
