package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.KafkaStreams;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * An event that decodes and validates but that PostgreSQL refuses (here a CHECK constraint of the test's
 * database, as PostgreSQL refuses a NUL or a too long string): it is dead-lettered once with the reason,
 * the records after it on its partition are applied, the committed offsets move past it, and the
 * projector stays up and ready.
 */
class ProjectorDatabaseRejectionIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    /** One partition: every record below is on the same partition as the refused one. */
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ProjectorInstance projector;
    private static String group;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() {
        DB.jdbc().execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
        group = ProjectorInstance.uniqueApplicationId();
        projector = ProjectorInstance.start(ProjectorInstance.properties(DB, TOPICS, group));
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
    }

    @Test
    void shouldDeadLetterTheRefusedEventOnceApplyTheRecordsBehindItAndCommitPastIt() {
        UUID poisoned = UUID.randomUUID();
        UUID before = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        byte[] refusedValue = AvroEventCodec.singleObject().encode(TOPICS.events(),
                CaseEvents.changed(poisoned, 1).worker("poison").build(), false);
        RecordMetadata refused;
        try (EventPublisher publisher = new EventPublisher()) {
            // Given a case the database holds, then an event it refuses, then good events on the same partition
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(before).worker("w-before").build()));
            refused = publisher.publishRaw(TOPICS.events(), poisoned.toString(), refusedValue);
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.created(after).worker("w-after").build(),
                    CaseEvents.changed(before, 1).worker("w-before-1").build()));
        }

        // Then the good events are applied and the partition's committed offset reaches its end
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(worker(after)).isEqualTo("w-after");
            assertThat(worker(before)).isEqualTo("w-before-1");
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
        });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ?", Long.class, poisoned))
                .isZero();

        // and the refused event is dead-lettered once, as it arrived, with the database's reason
        List<ConsumerRecord<byte[], byte[]>> dead = DeadLetterReader.read(TOPICS.deadLetter(), 1, Duration.ofSeconds(2));
        assertThat(dead).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = dead.get(0);
        assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo(poisoned.toString());
        assertThat(letter.value()).isEqualTo(refusedValue);
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.REASON)).isEqualTo("DATABASE_INTEGRITY_VIOLATION");
        assertThat(DeadLetters.header(letter.headers(), "dlq.sqlstate")).isEqualTo("23514");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo(Long.toString(refused.offset()));
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.MESSAGE)).contains(poisoned.toString(), "test_reject");

        // and the projector stays up, ready, and counts it
        assertThat(projector.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(projector.health("readiness")).isEqualTo(Status.UP);
        assertThat(projector.health("projectionSink")).isEqualTo(Status.UP);
        MeterRegistry meters = projector.bean(MeterRegistry.class);
        assertThat(meters.get("case_assignments.events.dead_lettered").tag("reason", "DATABASE_INTEGRITY_VIOLATION")
                .counter().count()).isEqualTo(1);
        // and the lag from each written event's occurred_at to its commit is measured (at least one per
        // case: two events of a case in one batch are written as one)
        assertThat(meters.get("case_assignments.lag.end_to_end").timer().count()).isGreaterThanOrEqualTo(2);
        assertThat(meters.get("case_assignments.pending.cases").gauge().value()).isZero();
    }

    private String worker(UUID caseId) {
        return jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class,
                caseId);
    }
}
