package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.DatabaseProxy;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The projector's database socket stops answering in the middle of a write (a half-open connection: nothing comes
 * back, nothing is closed). The projector reaches PostgreSQL through a proxy the test freezes while a stream
 * thread's statement waits for a row lock the test holds: liveness goes DOWN once the thread has been in that one
 * attempt longer than {@code projector.health.max-write}; the statement then fails by the driver's
 * {@code socketTimeout}, the server ends the abandoned transaction ({@code idle_in_transaction_session_timeout}
 * from the connection's server options), the batch is written on a new connection and liveness is UP again.
 */
class ProjectorFrozenDatabaseSocketIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldReportNotLiveWhileAWriteHangsOnAFrozenSocketAndRecoverOnceTheSocketTimesOut() throws Exception {
        UUID caseId = UUID.randomUUID();
        try (DatabaseProxy proxy = DatabaseProxy.inFrontOf(DB);
             EventPublisher publisher = new EventPublisher();
             Connection locker = DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password())) {
            Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
            properties.put("spring.datasource.url", proxy.jdbcUrl());
            properties.put("spring.datasource.hikari.maximum-pool-size", "2");
            properties.put("spring.datasource.hikari.validation-timeout", "1000");
            properties.put("spring.datasource.hikari.data-source-properties.socketTimeout", "6");
            properties.put("spring.datasource.hikari.data-source-properties.options",
                    "-c idle_in_transaction_session_timeout=2s");
            properties.put("projector.streams.threads", "1");
            properties.put("projector.health.max-write", "2s");
            try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
                // Given a case the projector applied, and its row locked by another session
                publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(caseId).worker("w-1").build()));
                await().atMost(TIMEOUT).until(() -> revision(caseId) == 0L);
                locker.setAutoCommit(false);
                try (PreparedStatement lock = locker.prepareStatement(
                        "SELECT 1 FROM case_assignments WHERE case_id = ? FOR UPDATE")) {
                    lock.setObject(1, caseId);
                    lock.executeQuery().close();
                }
                long lockerPid = pid(locker);

                // When the projector's write of the next revision waits for that lock
                publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.changed(caseId, 1).worker("w-2").build()));
                await("the projector's statement waiting for the test's lock").atMost(TIMEOUT).until(() -> jdbc
                        .queryForObject("SELECT count(*) FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))",
                                Long.class, lockerPid) > 0);
                // and its socket stops answering, then the lock is released (the answer never arrives)
                assertThat(proxy.freezeOpenConnections()).isPositive();
                locker.commit();

                // Then liveness goes DOWN, naming the thread stuck in its write
                await("liveness DOWN").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> projector.health("liveness").equals(Status.DOWN));
                assertThat(projector.healthDetails("projectionWritesHealthIndicator").get("reason").toString())
                        .contains("one transaction of a batch's write");

                // and once the socket times out, the batch is written on another connection and liveness is UP again
                await("the revision written after the socket timed out").atMost(TIMEOUT).ignoreExceptions()
                        .until(() -> revision(caseId) == 1L);
                await().atMost(TIMEOUT).until(() -> projector.health("liveness").equals(Status.UP));
            }
        }
    }

    private Long revision(UUID caseId) {
        return jdbc.queryForList("SELECT assignment_revision FROM case_assignments WHERE case_id = ?", Long.class, caseId)
                .stream().findFirst().orElse(-1L);
    }

    private static long pid(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement();
             ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            return pid.getLong(1);
        }
    }
}
