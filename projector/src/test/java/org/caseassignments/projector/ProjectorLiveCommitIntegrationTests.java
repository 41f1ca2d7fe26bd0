package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Live events reach PostgreSQL at the next check, ahead of the Kafka commit that moves their offsets
 * (decision 21); the offsets follow once the first write since the last commit is
 * {@code projector.sink.live-commit-every} old.
 */
class ProjectorLiveCommitIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldMakeLiveEventsVisibleInPostgresqlWhileTheirOffsetsAreNotYetCommitted() {
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        String group = ProjectorInstance.uniqueApplicationId();
        // Every event is live, and neither the live commit nor Kafka Streams' interval comes within the test:
        // a commit at the check, as before decision 21, would move the offset past the event.
        Map<String, String> properties = liveOnly(topics, group, "5m");

        try (ProjectorInstance projector = ProjectorInstance.start(properties);
             EventPublisher publisher = new EventPublisher()) {
            UUID first = UUID.randomUUID();
            UUID second = UUID.randomUUID();
            RecordMetadata created = publish(publisher, topics,
                    CaseEvents.created(first).worker("w-0").supervisor("s-0").build());
            awaitProjection(first, new ProjectionRows.Assignment("w-0", "s-0", 0));
            assertThat(KafkaOffsets.committed(group, topics.events()).getOrDefault(created.partition(), 0L))
                    .as("the committed offset of the first event's partition").isLessThanOrEqualTo(created.offset());

            // And the next live event too, written on its own after the first write, without a commit between
            RecordMetadata changed = publish(publisher, topics,
                    CaseEvents.changed(second, 1).worker("w-1").supervisor("s-1").build());
            awaitProjection(second, new ProjectionRows.Assignment("w-1", "s-1", 1));
            assertThat(KafkaOffsets.committed(group, topics.events()).getOrDefault(changed.partition(), 0L))
                    .as("the committed offset, after the second event is visible").isLessThanOrEqualTo(created.offset());
        }
    }

    @Test
    void shouldCommitTheOffsetsOfWrittenLiveEventsOnceTheLiveCommitIntervalHasPassed() {
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        String group = ProjectorInstance.uniqueApplicationId();
        // Only the live commit can commit within the test.
        Map<String, String> properties = liveOnly(topics, group, "200ms");

        try (ProjectorInstance projector = ProjectorInstance.start(properties);
             EventPublisher publisher = new EventPublisher()) {
            UUID caseId = UUID.randomUUID();
            publish(publisher, topics, CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build());
            publish(publisher, topics, CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());

            awaitProjection(caseId, new ProjectionRows.Assignment("w-1", "s-1", 1));
            await("the committed offset at the end of the input").atMost(TIMEOUT)
                    .until(() -> KafkaOffsets.caughtUp(group, topics.events(), 1));
        }
    }

    /** Every event counts as live; the backlog rules and Kafka Streams' own commit stay out of reach. */
    private static Map<String, String> liveOnly(ProjectorTopics topics, String group, String liveCommitEvery) {
        Map<String, String> properties = ProjectorInstance.properties(DB, topics, group);
        properties.put("projector.sink.fresh-within", "1h");
        properties.put("projector.sink.quiet-after", "5m");
        properties.put("projector.sink.live-commit-every", liveCommitEvery);
        properties.put("projector.streams.commit-interval", "5m");
        return properties;
    }

    private static RecordMetadata publish(EventPublisher publisher, ProjectorTopics topics,
                                          org.apache.avro.specific.SpecificRecord event) {
        return publisher.publishInOrder(topics.events(), List.of(event)).get(0);
    }

    private void awaitProjection(UUID caseId, ProjectionRows.Assignment expected) {
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(ProjectionRows.projection(jdbc)).containsEntry(caseId, expected));
    }
}
