package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.store.StorableTime;
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
 * An {@code occurred_at} PostgreSQL cannot store is bad input, refused at decode: the event that carries it is
 * dead-lettered, never the newer valid event of its case that it would have failed in one batch; the extremes of
 * PostgreSQL's range are stored as they are.
 */
class ProjectorOccurredAtIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldDeadLetterTheEventWhoseOccurredAtPostgreSqlCannotStoreAndWriteTheNewerOneOfItsCase() {
        // Given a backlog where one case's revision 1 happened after PostgreSQL's last timestamp and its revision 2
        // is valid, and another case whose revisions sit at the first and the last instants PostgreSQL stores
        UUID refused = UUID.randomUUID();
        UUID extremes = UUID.randomUUID();
        Instant first = StorableTime.FIRST;
        Instant last = Instant.parse("+294276-12-31T23:59:59.999Z");
        RecordMetadata outOfRange;
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(TOPICS.events(), CaseEvents.created(refused).build(), java.util.Map.of());
            outOfRange = publisher.publish(TOPICS.events(),
                    at(CaseEvents.changed(refused, 1).worker("w-too-late").build(), Instant.parse("+294277-01-01T00:00:00Z")),
                    java.util.Map.of());
            publisher.publish(TOPICS.events(), CaseEvents.changed(refused, 2).worker("w-valid").build(), java.util.Map.of());
            publisher.publish(TOPICS.events(), at(CaseEvents.changed(extremes, 1).build(), first), java.util.Map.of());
            publisher.publish(TOPICS.events(), at(CaseEvents.changed(extremes, 2).worker("w-last").build(), last),
                    java.util.Map.of());
        }

        // When the projector reads it, in one batch or several
        try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId())) {

            // Then the newest valid event is written, and the history has every revision but the refused one
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                        String.class, refused)).isEqualTo("w-valid");
                assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                        String.class, extremes)).isEqualTo("w-last");
            });
            assertThat(jdbc.queryForList("SELECT assignment_revision FROM case_assignment_history WHERE case_id = ? "
                    + "ORDER BY assignment_revision", Long.class, refused)).containsExactly(0L, 2L);
            assertThat(jdbc.queryForList("SELECT occurred_at = ?::timestamptz FROM case_assignment_history "
                            + "WHERE case_id = ? ORDER BY assignment_revision", Boolean.class,
                    "4714-11-24 00:00:00Z BC", extremes).get(0)).isTrue();
            assertThat(jdbc.queryForObject("SELECT occurred_at = '294276-12-31 23:59:59.999Z'::timestamptz "
                    + "FROM case_assignment_history WHERE case_id = ? AND assignment_revision = 2", Boolean.class,
                    extremes)).isTrue();

            // and the one dead letter is the out-of-range event, as bad input
            List<ConsumerRecord<byte[], byte[]>> dead = DeadLetterReader.read(TOPICS.deadLetter(), 1, Duration.ofSeconds(2));
            assertThat(dead).hasSize(1);
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.REASON)).isEqualTo(Rejection.INVALID_OCCURRED_AT);
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.SOURCE_OFFSET))
                    .isEqualTo(Long.toString(outOfRange.offset()));
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.MESSAGE)).contains("occurred_at");
        }
    }

    @Test
    void shouldWriteAndCommitAnEventThatOccurredAtPostgreSqlsFirstInstantOrInYearOneAloneInItsCase() {
        // Given two cases with one event each, so each is kept whatever the batching: one at the first instant
        // PostgreSQL stores, one at the start of year 1 (both lags overflow a timer's nanoseconds)
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        UUID first = UUID.randomUUID();
        UUID yearOne = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(topics.events(), at(CaseEvents.changed(first, 1).worker("w-first").build(), StorableTime.FIRST),
                    java.util.Map.of());
            publisher.publish(topics.events(), at(CaseEvents.changed(yearOne, 1).worker("w-year-one").build(),
                    Instant.parse("0001-01-01T00:00:00Z")), java.util.Map.of());
        }

        // When the projector reads them
        String group = ProjectorInstance.uniqueApplicationId();
        try (ProjectorInstance projector = ProjectorInstance.start(DB, topics, group)) {

            // Then both are written and the task commits past them
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                        String.class, first)).isEqualTo("w-first");
                assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                        String.class, yearOne)).isEqualTo("w-year-one");
                assertThat(KafkaOffsets.caughtUp(group, topics.events(), 1)).isTrue();
            });
        }
    }

    private static CaseAssignmentChanged at(CaseAssignmentChanged event, Instant occurredAt) {
        event.setOccurredAt(occurredAt);
        return event;
    }
}
