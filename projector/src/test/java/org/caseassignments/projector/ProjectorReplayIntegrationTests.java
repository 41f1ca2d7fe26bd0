package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/** Consuming every event again from the beginning writes no row: the database guard makes redelivery idempotent. */
class ProjectorReplayIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldChangeNoRowWhenTheWholeTopicIsConsumedAgainFromTheBeginning() {
        CaseHistory history = CaseHistory.generate(77, 500, 5);
        history.seedRows(jdbc);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), history.deliveries);
        }
        try (ProjectorInstance first = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId())) {
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
        }
        List<Map<String, Object>> before = ProjectionRows.snapshotWithXmin(jdbc);

        // A new application id: a new consumer group, so every event is decoded and applied again; the
        // offsets are committed only after the database took each batch.
        String replay = ProjectorInstance.uniqueApplicationId();
        try (ProjectorInstance again = ProjectorInstance.start(DB, TOPICS, replay)) {
            await("the replay consuming every event").atMost(TIMEOUT)
                    .until(() -> KafkaOffsets.caughtUp(replay, TOPICS.events(), TOPICS.partitions()));
        }

        assertThat(ProjectionRows.snapshotWithXmin(jdbc)).isEqualTo(before);
        assertThat(before).hasSizeGreaterThan(history.oracle.size());
    }
}
