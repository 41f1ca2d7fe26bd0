package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.apache.kafka.streams.processor.TaskId;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/** Two instances with one application id split the partitions; instances joining and leaving lose nothing. */
class ProjectorScaleOutIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(4).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldShareThePartitionsBetweenTwoInstancesAndTogetherReachTheOracleAcrossRebalances() {
        CaseHistory history = CaseHistory.generate(31337, 1000, 6);
        history.seedRows(jdbc);
        String applicationId = ProjectorInstance.uniqueApplicationId();

        try (EventPublisher publisher = new EventPublisher();
             ProjectorInstance first = ProjectorInstance.start(DB, TOPICS, applicationId)) {
            publisher.publishAll(TOPICS.events(), history.slice(0, 3));

            // A second instance joins while events flow: the partitions are rebalanced between the two
            try (ProjectorInstance second = ProjectorInstance.start(DB, TOPICS, applicationId)) {
                publisher.publishAll(TOPICS.events(), history.slice(1, 3));
                await("both instances owning stream tasks").atMost(TIMEOUT)
                        .untilAsserted(() -> {
                            assertThat(activeTasks(first)).isNotZero();
                            assertThat(activeTasks(second)).isNotZero();
                            assertThat(activeTasks(first) + activeTasks(second)).isEqualTo(TOPICS.partitions());
                        });
            }

            // The second leaves: the first takes its partitions back, and the last third arrives meanwhile
            publisher.publishAll(TOPICS.events(), history.slice(2, 3));
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
            // live events are written before their offsets commit (decision 21), so the rows can be final
            // while the group still settles its last assignment
            await("the first instance owning every stream task").atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(activeTasks(first)).isEqualTo(TOPICS.partitions()));
        }
    }

    private static int activeTasks(ProjectorInstance instance) {
        return instance.streams().metadataForLocalThreads().stream()
                .mapToInt(thread -> (int) thread.activeTasks().stream().map(task -> task.taskId())
                        .filter((TaskId id) -> id.subtopology() == 0).count())
                .sum();
    }
}
