package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Retention deleted input the projector had not read (its committed offset is below the partition's log start): the
 * projector stops, loudly and by name — readiness DOWN naming the partition, its committed offset and the log start,
 * a meter, the projection left where it was — instead of jumping over the gap (a case moving 1 → 5 with no history
 * of 2–4). A group with no committed offset starts from the log start only when nothing was ever deleted from the
 * partition, the projection is empty, or projector.input.start-at-log-start allows it.
 */
class ProjectorInputGapIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldStopNamingThePartitionWhenRetentionDeletedUnreadInputEvenForAGroupWithNoCommittedOffset() {
        UUID caseId = UUID.randomUUID();
        String group = ProjectorInstance.uniqueApplicationId();
        long logStart;
        try (EventPublisher publisher = new EventPublisher()) {
            // Given a projector that applied and committed revisions 0 and 1 of a case, then stopped
            try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, group)) {
                publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(caseId).worker("w-0").build(),
                        CaseEvents.changed(caseId, 1).worker("w-1").build()));
                await().atMost(TIMEOUT).until(() -> revision(caseId) == 1L && KafkaOffsets.caughtUp(group, TOPICS.events(), 1));
            }
            long committed = KafkaOffsets.committed(group, TOPICS.events()).get(0);
            // and revisions 2 to 5 published meanwhile, of which retention deleted 2 to 4 unread
            List<RecordMetadata> unread = publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.changed(caseId, 2).worker("w-2").build(), CaseEvents.changed(caseId, 3).worker("w-3").build(),
                    CaseEvents.changed(caseId, 4).worker("w-4").build(), CaseEvents.changed(caseId, 5).worker("w-5").build()));
            logStart = unread.get(3).offset();
            KafkaOffsets.deleteBelow(TOPICS.events(), 0, logStart);

            // When the projector starts again
            try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, group)) {
                await().atMost(TIMEOUT).until(() -> projector.health("readiness").equals(Status.DOWN) || revision(caseId) == 5L);

                // Then it stops by name instead of jumping over the gap
                assertThat(revision(caseId)).as("the case's revision: not moved past the deleted input").isEqualTo(1L);
                await().atMost(TIMEOUT).until(() -> projector.health("projectionInput").equals(Status.DOWN));
                assertThat(projector.healthDetails("projectionInputHealthIndicator").get("reason").toString())
                        .contains(TOPICS.events() + "-0", "committed offset " + committed, "log start " + logStart,
                                (logStart - committed) + " records deleted unread");
                assertThat(projector.bean(MeterRegistry.class).get("case_assignments.input.gap.partitions").gauge().value())
                        .isEqualTo(1.0);
                assertThat(KafkaOffsets.committed(group, TOPICS.events()).get(0)).isEqualTo(committed);
            }
        }

        // And a group with no committed offset (offsets expired, a changed group id) on this non-empty projection
        // stops by name too: the log start is not where it left off
        String fresh = ProjectorInstance.uniqueApplicationId();
        try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, fresh)) {
            await().atMost(TIMEOUT).until(() -> projector.health("projectionInput").equals(Status.DOWN) || revision(caseId) == 5L);
            assertThat(revision(caseId)).as("the case's revision: not moved past the deleted input").isEqualTo(1L);
            assertThat(projector.healthDetails("projectionInputHealthIndicator").get("reason").toString())
                    .contains(TOPICS.events() + "-0", "no committed offset, " + logStart + " records deleted",
                            "log start " + logStart);
            assertThat(KafkaOffsets.committed(fresh, TOPICS.events())).as("nothing committed for the group").isEmpty();
        }

        // And only when an operator allows it does such a group start from the log start
        // (a group of its own: the stopped instance's member may linger in the last one until its session ends)
        String allowedGroup = ProjectorInstance.uniqueApplicationId();
        Map<String, String> allowed = ProjectorInstance.properties(DB, TOPICS, allowedGroup);
        allowed.put("projector.input.start-at-log-start", "true");
        try (ProjectorInstance projector = ProjectorInstance.start(allowed)) {
            await().atMost(TIMEOUT).until(() -> revision(caseId) == 5L && KafkaOffsets.caughtUp(allowedGroup, TOPICS.events(), 1));
            assertThat(projector.health("readiness")).isEqualTo(Status.UP);
        }
    }

    private Long revision(UUID caseId) {
        return jdbc.queryForList("SELECT assignment_revision FROM case_assignments WHERE case_id = ?", Long.class, caseId)
                .stream().findFirst().orElse(-2L);
    }
}
