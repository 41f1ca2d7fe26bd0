package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.apache.kafka.streams.KafkaStreams;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/**
 * A Kafka Streams client that no longer runs (stopped, or in ERROR after its last thread died) consumes nothing
 * and never will by itself: readiness takes the instance out, and liveness has it restarted.
 */
class ProjectorStreamsClientHealthIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();

    @Test
    void shouldReportNotReadyAndNotLiveOnceTheStreamsClientNoLongerRuns() {
        try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId())) {
            await().atMost(Duration.ofSeconds(60)).until(() -> projector.health("readiness").equals(Status.UP));
            assertThat(projector.health("liveness")).isEqualTo(Status.UP);

            // When the Streams client stops while the application goes on
            projector.streams().close(Duration.ofSeconds(30));
            assertThat(projector.streams().state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);

            // Then neither probe reports it well
            assertThat(projector.health("readiness")).isEqualTo(Status.DOWN);
            assertThat(projector.health("liveness")).isEqualTo(Status.DOWN);
        }
    }
}
