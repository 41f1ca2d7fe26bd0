package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Every kind of bad input, in the Confluent framing through a schema registry, lands in the
 * dead-letter topic with its original bytes and the reason, and the good record behind it on the
 * same partition is applied.
 */
class ProjectorDeadLetterIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();

    private static RegistryStub registry;
    private static ProjectorInstance projector;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() throws Exception {
        registry = new RegistryStub();
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        // An unknown schema id is dead-lettered once the registry has not known it for half a second.
        projector = ProjectorInstance.start(ProjectorInstance.withRegistry(properties, registry, Duration.ofMillis(500)));
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
        registry.close();
    }

    @Test
    void shouldDeadLetterEveryBadInputKindAndApplyTheGoodRecordBehindItOnTheSamePartition() {
        UUID caseId = UUID.randomUUID();
        String key = caseId.toString();
        AvroEventCodec codec = new AvroEventCodec(SerdeSettings.from(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString())),
                BundledSchemas.current());
        byte[] good = codec.encode(TOPICS.events(), CaseEvents.changed(caseId, 2).worker("w-after").build(), false);
        CaseAssignmentChanged notAUuid = CaseEvents.changed(caseId, 1).build();
        notAUuid.setCaseId("case-42");
        Map<String, byte[]> bad = new LinkedHashMap<>();
        bad.put("UNKNOWN_FRAMING", "{\"case_id\":\"json, not avro\"}".getBytes(StandardCharsets.UTF_8));
        bad.put("MALFORMED_PAYLOAD", Arrays.copyOf(good, 12));
        bad.put("UNKNOWN_SCHEMA", RegistryStub.confluentFramed(9999, new byte[] {2, 'x'}));
        bad.put("MISSING_REQUIRED_FIELD", withoutRevision(caseId));
        bad.put(Rejection.NEGATIVE_REVISION, codec.encode(TOPICS.events(), CaseEvents.changed(caseId, -4).build(), false));
        bad.put(Rejection.INVALID_CASE_ID, codec.encode(TOPICS.events(), notAUuid, false));
        bad.put(Rejection.UNEXPECTED_RECORD_TYPE, codec.encode(TOPICS.events(), CaseAssignment.newBuilder()
                .setCaseId(key).setAssignmentRevision(9).build(), false));
        bad.put(Rejection.NULL_VALUE, null);

        List<RecordMetadata> sent = new ArrayList<>();
        try (EventPublisher publisher = new EventPublisher()) {
            bad.values().forEach(value -> sent.add(publisher.publishRaw(TOPICS.events(), key, value)));
            sent.add(publisher.publishRaw(TOPICS.events(), key, good));
        }

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> assertThat(jdbc.queryForObject(
                "SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class, caseId))
                .isEqualTo("w-after"));
        List<ConsumerRecord<byte[], byte[]>> dead = readDeadLetters(bad.size());
        assertThat(dead).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.REASON))
                .containsExactlyElementsOf(bad.keySet());
        List<byte[]> originals = new ArrayList<>(bad.values());
        for (int i = 0; i < dead.size(); i++) {
            ConsumerRecord<byte[], byte[]> record = dead.get(i);
            assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(key);
            assertThat(record.value()).isEqualTo(originals.get(i));
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(TOPICS.events());
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_PARTITION))
                    .isEqualTo(Integer.toString(sent.get(i).partition()));
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_OFFSET))
                    .isEqualTo(Long.toString(sent.get(i).offset()));
            assertThat(DeadLetters.header(record.headers(), DeadLetters.MESSAGE)).isNotBlank();
        }
        MeterRegistry meters = projector.bean(MeterRegistry.class);
        for (String reason : bad.keySet()) {
            assertThat(meters.get("case_assignments.events.dead_lettered").tag("reason", reason).counter().count())
                    .as(reason).isEqualTo(1);
        }
    }

    /** A CaseAssignmentChanged written by a producer whose schema lacks the revision, as the registry knows it. */
    private static byte[] withoutRevision(UUID caseId) {
        Schema full = CaseAssignmentChanged.getClassSchema();
        Schema schema = Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false,
                full.getFields().stream().filter(f -> !f.name().equals("assignment_revision"))
                        .map(f -> new Schema.Field(f, f.schema())).toList());
        GenericRecord record = new GenericData.Record(schema);
        record.put("event_id", UUID.randomUUID().toString());
        record.put("case_id", caseId.toString());
        record.put("occurred_at", 0L);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(body, null);
            new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
            encoder.flush();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return RegistryStub.confluentFramed(registry.preRegister(schema), body.toByteArray());
    }

    private static List<ConsumerRecord<byte[], byte[]>> readDeadLetters(int expected) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(
                DeadLetterReader.read(TOPICS.deadLetter(), expected, Duration.ZERO));
        records.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(
                DeadLetters.header(r.headers(), DeadLetters.SOURCE_OFFSET))));
        return records;
    }
}
