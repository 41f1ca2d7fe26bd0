package org.caseassignments.projector;

import java.time.Duration;
import java.util.Map;

import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * A backlog of old events is written as soon as the projector has read it to the end: its consumers'
 * lag tells the tasks so, and they neither wait for the input to go quiet nor for the commit interval.
 */
class ProjectorBacklogIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldWriteABacklogOnceItIsReadToTheEndWithoutWaitingForQuietOrTheCommitInterval() {
        CaseHistory history = CaseHistory.generate(91, 300, 4);
        history.seedRows(jdbc);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), history.deliveries);
        }
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        // Only having read everything can end these batches within the test's minute: no event is live,
        // the input counts as quiet after five minutes, and Kafka Streams commits every five minutes.
        properties.put("projector.sink.fresh-within", "0ms");
        properties.put("projector.sink.quiet-after", "5m");
        properties.put("projector.streams.commit-interval", "5m");

        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            ProjectionRows.awaitOracle(jdbc, history, Duration.ofSeconds(60));
        }
    }
}
