package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Records whose registry schema the decoder cannot use — a JSON or Protobuf schema, Avro with references, text
 * Avro cannot parse — are dead-lettered {@code UNSUPPORTED_SCHEMA}; an id the registry answers 404 for is asked
 * again for the not-found window and then dead-lettered {@code UNKNOWN_SCHEMA}, unless it becomes known within
 * the window (a follower catching up), when its record is applied. Each time the partition moves on, in the
 * same stream threads.
 */
class ProjectorRegistrySchemaIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration NOT_FOUND_WINDOW = Duration.ofSeconds(8);

    private static RegistryStub registry;
    private static ProjectorInstance projector;
    private static String group;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() throws IOException {
        registry = new RegistryStub();
        group = ProjectorInstance.uniqueApplicationId();
        projector = ProjectorInstance.start(ProjectorInstance.withRegistry(ProjectorInstance.properties(DB, TOPICS, group),
                registry, NOT_FOUND_WINDOW));
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
        registry.close();
    }

    @Test
    void shouldDeadLetterSchemasItCannotUseWaitOutA404ForTheWindowAndApplyTheRecordsBehindThem() {
        // Given the stream threads as they run
        List<String> threads = threadNames();
        UUID caseId = UUID.randomUUID();
        UUID lateCase = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        byte[] body = body(CaseEvents.created(caseId).build());
        int json = registry.preRegisterAnswer("{\"schemaType\":\"JSON\",\"schema\":\"{\\\"type\\\":\\\"object\\\"}\"}");
        int protobuf = registry.preRegisterAnswer("{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}");
        int references = registry.preRegisterAnswer("{\"schema\":" + quoted(CaseCreated.getClassSchema().toString())
                + ",\"references\":[{\"name\":\"org.example.Other\",\"subject\":\"other\",\"version\":1}]}");
        int unparsable = registry.preRegisterAnswer("{\"schema\":\"not a schema\"}");
        int neverKnown = registry.reserveId();
        int knownLate = registry.reserveId();

        // When they arrive on one partition, followed by a record whose schema the registry learns late and a good one
        try (EventPublisher publisher = new EventPublisher()) {
            for (int id : List.of(json, protobuf, references, unparsable, neverKnown)) {
                publisher.publishRaw(TOPICS.events(), caseId.toString(), RegistryStub.confluentFramed(id, body));
            }
            publisher.publishRaw(TOPICS.events(), lateCase.toString(),
                    RegistryStub.confluentFramed(knownLate, body(CaseEvents.created(lateCase).worker("w-late").build())));
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(after).worker("w-after").build()));
        }
        await("the registry asked for the late schema").atMost(Duration.ofSeconds(60))
                .until(() -> registry.requestsFor(knownLate) > 0);
        registry.publish(knownLate, CaseCreated.getClassSchema());

        // Then the late record and the good one are applied, and the committed offset reaches the end
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            assertThat(worker(lateCase)).isEqualTo("w-late");
            assertThat(worker(after)).isEqualTo("w-after");
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
        });
        // and the schemas the decoder cannot use are dead-lettered as such, the never-known id once the window passed
        List<ConsumerRecord<byte[], byte[]>> dead = DeadLetterReader.read(TOPICS.deadLetter(), 5, Duration.ofSeconds(2));
        assertThat(dead).extracting(letter -> DeadLetters.header(letter.headers(), DeadLetters.REASON)).containsExactly(
                "UNSUPPORTED_SCHEMA", "UNSUPPORTED_SCHEMA", "UNSUPPORTED_SCHEMA", "UNSUPPORTED_SCHEMA", "UNKNOWN_SCHEMA");
        assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.MESSAGE)).contains("JSON");
        assertThat(DeadLetters.header(dead.get(2).headers(), DeadLetters.MESSAGE)).contains("references");
        assertThat(registry.requestsFor(neverKnown)).isGreaterThan(1);
        assertThat(worker(caseId)).isNull();
        // and the same stream threads did it
        assertThat(projector.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(threadNames()).isEqualTo(threads);
    }

    private String worker(UUID caseId) {
        return jdbc.query("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                rs -> rs.next() ? rs.getString(1) : null, caseId);
    }

    private static List<String> threadNames() {
        List<String> names = new ArrayList<>();
        projector.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName).sorted().forEach(names::add);
        return names;
    }

    private static byte[] body(CaseCreated event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new SpecificDatumWriter<CaseCreated>(CaseCreated.getClassSchema()).write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
