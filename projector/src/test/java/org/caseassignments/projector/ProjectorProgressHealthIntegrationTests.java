package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Readiness tells the truth about progress: a record that never becomes an event (here the schema registry answers
 * 503, so the decoder waits) holds no pending work, yet its partition makes no progress; readiness goes DOWN
 * naming the partition and the offset it is stuck at once that lasts longer than {@code max-stall}, and comes back
 * by itself once the partition moves.
 */
class ProjectorProgressHealthIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldGoNotReadyNamingThePartitionAndOffsetWhileAPartitionMakesNoProgressAndComeBackByItself() throws IOException {
        UUID stuck = UUID.randomUUID();
        UUID behind = UUID.randomUUID();
        try (RegistryStub registry = new RegistryStub()) {
            String group = ProjectorInstance.uniqueApplicationId();
            Map<String, String> properties = ProjectorInstance.withRegistry(ProjectorInstance.properties(DB, TOPICS, group),
                    registry, Duration.ofSeconds(20));
            properties.put("projector.health.max-stall", "3s");
            try (ProjectorInstance projector = ProjectorInstance.start(properties);
                 EventPublisher publisher = new EventPublisher()) {
                byte[] value = new AvroEventCodec(SerdeSettings.from(Map.of(SerdeSettings.REGISTRY_URL,
                        registry.url().toString())), BundledSchemas.current())
                        .encode(TOPICS.events(), CaseEvents.created(stuck).worker("w-stuck").build(), false);
                await().atMost(Duration.ofSeconds(60)).until(() -> projector.health("readiness").equals(Status.UP));

                // Given a registry that answers 503, and a record that needs it, then one that does not
                registry.failWith(503);
                RecordMetadata waiting = publisher.publishRaw(TOPICS.events(), stuck.toString(), value);
                publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(behind).worker("w-behind").build()));

                // Then readiness goes DOWN, naming the partition and the offset it is stuck at
                await().atMost(Duration.ofSeconds(60)).until(() -> projector.health("readiness").equals(Status.DOWN));
                Map<String, Object> details = projector.healthDetails("projectionProgressHealthIndicator");
                assertThat(details.get("reason").toString())
                        .contains(TOPICS.events() + "-0", "stuck at offset " + waiting.offset());
                assertThat(projector.health("projectionCommits")).isEqualTo(Status.UP);
                // and the partition's backlog is measured from the group's offsets, the consumer's own window aside
                assertThat(projector.bean(MeterRegistry.class).get("case_assignments.input.lag")
                        .tags("topic", TOPICS.events(), "partition", "0").gauge().value())
                        .isEqualTo(2.0);

                // When the registry answers again
                registry.failWith(0);

                // Then both records are applied and readiness is UP again by itself
                await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
                    assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                            String.class, behind)).isEqualTo("w-behind");
                    assertThat(projector.health("readiness")).isEqualTo(Status.UP);
                });
                assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                        String.class, stuck)).isEqualTo("w-stuck");
            }
        }
    }
}
