package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * A backlog batch larger than the database's {@code statement_timeout} lets through is written in smaller
 * transactions instead of being retried whole forever: every event is applied, none is dead-lettered, and the
 * partition's committed offset reaches its end.
 */
class ProjectorStatementTimeoutIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final int CASES = 3_000;

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldShrinkTheBatchAStatementTimeoutCancelsAndApplyTheWholeBacklogWithoutDeadLetters() {
        // Given a database that cancels statements after 500 ms, where each projection row takes 2 ms to write:
        // a statement of more than about 250 rows times out
        jdbc.execute("ALTER DATABASE " + DB.name() + " SET statement_timeout = '500ms'");
        jdbc.execute("""
                CREATE FUNCTION test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_sleep(0.002);
                    RETURN NEW;
                END $$""");
        jdbc.execute("CREATE TRIGGER test_slow BEFORE INSERT OR UPDATE ON case_assignments FOR EACH ROW EXECUTE FUNCTION test_slow()");
        // and a backlog of 3,000 cases, read as one batch
        List<SpecificRecord> events = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            events.add(CaseEvents.created(UUID.randomUUID()).worker("w-" + i).build());
        }
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), events);
        }

        // When the projector reads it
        String group = ProjectorInstance.uniqueApplicationId();
        try (ProjectorInstance projector = ProjectorInstance.start(ProjectorInstance.properties(DB, TOPICS, group))) {
            // Then every case is applied and the committed offset reaches the end
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .untilAsserted(() -> {
                        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Long.class))
                                .isEqualTo(CASES);
                        assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
                    });
        }
        // and nothing was dead-lettered
        assertThat(DeadLetterReader.read(TOPICS.deadLetter(), 0, Duration.ofSeconds(2))).isEmpty();
    }
}
