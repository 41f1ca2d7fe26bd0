package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.RegistryRetry;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.CaseEventDeserializer;
import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.DatabaseRejection;
import org.caseassignments.store.ReducedBatch;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.testkit.CaseEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProjectorTopologyTests {

    private static final String EVENTS = "case.events";
    private static final String MORE_EVENTS = "case.events.more";
    private static final CaseTopics TOPICS = CaseTopics.of(List.of(EVENTS, MORE_EVENTS), "case.assignments",
            "case.events.dlq", Map.of());

    /** CaseAssignmentChanged as a producer that leaves out the hard-required revision writes it. */
    private static final Schema WITHOUT_REVISION = withoutField(CaseAssignmentChanged.getClassSchema(),
            "assignment_revision");

    private final AvroEventCodec codec = AvroEventCodec.singleObject();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @TempDir
    Path stateDir;

    private static final PendingAssignments.Pacing PACING =
            new PendingAssignments.Pacing(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(500), 1_000,
                    Duration.ofSeconds(1), Long.MAX_VALUE, Duration.ofDays(1), Duration.ofDays(1));

    /** What the PostgreSQL stage was given, one list per flush. */
    private final List<List<AssignmentUpdate>> flushed = new ArrayList<>();
    /** Cases whose events the PostgreSQL stage refuses, as PostgreSQL refuses a value a constraint forbids. */
    private final java.util.Set<UUID> refusedCases = new java.util.HashSet<>();
    private final UncommittedWork work = new UncommittedWork(java.time.Clock.systemUTC(), registry, Duration.ofMinutes(2));

    private List<BatchIsolation.Refused<PendingAssignments.Event>> flush(ReducedBatch<PendingAssignments.Event> batch) {
        flushed.add(batch.updates());
        return batch.kept().stream().map(ReducedBatch.Entry::item)
                .filter(event -> refusedCases.contains(event.update().caseId()))
                .map(event -> new BatchIsolation.Refused<>(event, new DatabaseRejection(
                        DatabaseRejection.INTEGRITY_VIOLATION, "23514", "violates check constraint \"test_reject\"")))
                .toList();
    }

    /** The pending batch of each task, written through {@link #flush}. */
    private org.apache.kafka.streams.state.StoreBuilder<PendingAssignments> pendingBatch() {
        return PendingAssignments.builder(this::flush, work, PACING, PendingAssignments.Backlog.UNKNOWN);
    }

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> events;
    private TestInputTopic<byte[], byte[]> moreEvents;
    private TestOutputTopic<String, SpecificRecord> assignments;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void startDriver() {
        // The reader also knows the older writer schema, as a registry would, so a record without its
        // revision is read far enough to be refused for exactly that.
        CaseEventReader reader = new CaseEventReader(new AvroEventCodec(SerdeSettings.SINGLE_OBJECT,
                BundledSchemas.withWriterSchemas(List.of(WITHOUT_REVISION))));
        StreamsBuilder builder = new StreamsBuilder();
        new ProjectorTopology(TOPICS, reader, new IngestMetrics(registry, "projector"),
                pendingBatch(), true)
                .addTo(builder);
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "projector-topology-tests");
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(builder.build(), config);
        events = driver.createInputTopic(EVENTS, new ByteArraySerializer(), new ByteArraySerializer());
        moreEvents = driver.createInputTopic(MORE_EVENTS, new ByteArraySerializer(), new ByteArraySerializer());
        assignments = driver.createOutputTopic(TOPICS.assignments().name(), new StringDeserializer(),
                new CaseEventDeserializer());
        deadLetters = driver.createOutputTopic(TOPICS.deadLetter().name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void shouldStopTakingAShareOfTheBudgetWhenItsProcessorClosesWhileItsStoreStaysOpen() {
        // a task turned standby: Kafka Streams closes its processors and keeps its stores
        MockProcessorContext<String, Forwarded> context = new MockProcessorContext<>();
        PendingAssignments store = pendingBatch().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        DecodeProcessor processor = new DecodeProcessor(new CaseEventReader(new AvroEventCodec(SerdeSettings.SINGLE_OBJECT,
                BundledSchemas.withWriterSchemas(List.of()))), new IngestMetrics(registry, "projector"),
                new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(50)), false, 1_048_576);
        processor.init(context);
        double processing = registry.get("case_assignments.tasks.processing").gauge().value();

        processor.close();

        assertThat(registry.get("case_assignments.tasks.processing").gauge().value()).isEqualTo(processing - 1);
        assertThat(store.isOpen()).isTrue();
    }

    @Test
    void shouldCountTheTaskAsProcessingUntilKafkaStreamsClosesIt() {
        assertThat(registry.get("case_assignments.tasks.processing").gauge().value()).isEqualTo(1);

        driver.close();
        driver = null;

        assertThat(registry.get("case_assignments.tasks.processing").gauge().value()).isZero();
    }

    @Test
    void shouldPublishTheCreationAndEveryHigherRevisionInArrivalOrder() {
        UUID caseId = UUID.randomUUID();

        send(events, CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build());
        send(events, CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());
        send(events, CaseEvents.changed(caseId, 3).worker("w-3").supervisor(null).build());

        assertThat(assignments.readKeyValuesToList()).extracting(kv -> kv.key, kv -> describe(kv.value))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(caseId.toString(), "w-0/s-0@0"),
                        org.assertj.core.groups.Tuple.tuple(caseId.toString(), "w-1/s-1@1"),
                        org.assertj.core.groups.Tuple.tuple(caseId.toString(), "w-3/null@3"));
    }

    @Test
    void shouldHandEveryAcceptedEventToThePostgresqlStageByTheTimeItsTaskCommitsAndNoDeadLetter() {
        UUID caseId = UUID.randomUUID();

        send(events, CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build());
        events.pipeInput("not a case".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8));
        send(events, CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());
        send(events, CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());

        // The test driver commits after every record, so each flush holds the record just piped in;
        // the duplicate goes on too: the database guard, not this stage, decides it changes nothing.
        assertThat(flushed).extracting(batch -> batch.stream().map(u -> u.caseId() + "@" + u.revision()).toList())
                .containsExactly(List.of(caseId + "@0"), List.of(caseId + "@1"), List.of(caseId + "@1"));
        assertThat(deadLetters.readValuesToList()).hasSize(1);
    }

    @Test
    void shouldDeadLetterAnEventPostgresqlRefusesAsTheRecordItCameInWhenItsTaskCommits() {
        UUID poisoned = UUID.randomUUID();
        UUID healthy = UUID.randomUUID();
        refusedCases.add(poisoned);
        byte[] key = poisoned.toString().getBytes(StandardCharsets.UTF_8);
        byte[] value = codec.encode(EVENTS, CaseEvents.changed(poisoned, 3).worker("poison").build(), false);
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", "00-trace".getBytes(StandardCharsets.UTF_8));

        events.pipeInput(new TestRecord<>(key, value, headers));
        send(events, CaseEvents.changed(healthy, 1).build());

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(1);
        TestRecord<byte[], byte[]> letter = dead.get(0);
        assertThat(letter.key()).isEqualTo(key);
        assertThat(letter.value()).isEqualTo(value);
        assertThat(DeadLetters.header(letter.headers(), "traceparent")).isEqualTo("00-trace");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.REASON)).isEqualTo("DATABASE_INTEGRITY_VIOLATION");
        assertThat(DeadLetters.header(letter.headers(), "dlq.sqlstate")).isEqualTo("23514");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.MESSAGE)).contains(poisoned.toString(), "test_reject");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(EVENTS);
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(registry.get("case_assignments.events.dead_lettered").tag("reason", "DATABASE_INTEGRITY_VIOLATION")
                .counter().count()).isEqualTo(1);
        assertThat(flushed).hasSize(2);
    }

    @Test
    void shouldNotPublishStaleOrDuplicateEventsOrALateCreation() {
        UUID caseId = UUID.randomUUID();

        send(events, CaseEvents.changed(caseId, 2).worker("w-2").build());
        send(events, CaseEvents.changed(caseId, 1).worker("w-1").build());
        send(events, CaseEvents.changed(caseId, 2).worker("w-2").build());
        send(events, CaseEvents.created(caseId).worker("w-0").build());

        assertThat(assignments.readValuesToList()).extracting(ProjectorTopologyTests::describe)
                .containsExactly("w-2/supervisor-1@2");
        assertThat(registry.get("case_assignments.events.skipped").tag("stage", "filter").counter().count())
                .isEqualTo(3);
        assertThat(driver.<String, Long>getKeyValueStore(ProjectorTopology.REVISIONS_STORE).get(caseId.toString()))
                .isEqualTo(2L);
    }

    @Test
    void shouldTrackEachCaseOnItsOwnAcrossEveryInputTopic() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();

        send(events, CaseEvents.changed(first, 5).build());
        send(moreEvents, CaseEvents.changed(second, 1).build());
        send(moreEvents, CaseEvents.changed(first, 4).build());
        send(events, CaseEvents.changed(second, 2).build());

        assertThat(assignments.readKeyValuesToList()).extracting(kv -> kv.key,
                        kv -> ((CaseAssignment) kv.value).getAssignmentRevision())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(first.toString(), 5L),
                        org.assertj.core.groups.Tuple.tuple(second.toString(), 1L),
                        org.assertj.core.groups.Tuple.tuple(second.toString(), 2L));
    }

    @Test
    void shouldDeadLetterEveryBadInputKindWithItsOriginalBytesAndKeepTheStreamFlowing() {
        UUID caseId = UUID.randomUUID();
        byte[] key = caseId.toString().getBytes(StandardCharsets.UTF_8);
        byte[] valid = codec.encode(EVENTS, CaseEvents.changed(caseId, 1).build(), false);
        CaseAssignmentChanged notAUuid = CaseEvents.changed(caseId, 1).build();
        notAUuid.setCaseId("case-42");
        Map<String, byte[]> bad = new java.util.LinkedHashMap<>();
        bad.put("UNKNOWN_FRAMING", "{\"case_id\":\"not avro\"}".getBytes(StandardCharsets.UTF_8));
        bad.put("MALFORMED_PAYLOAD", Arrays.copyOf(valid, 14));
        bad.put("UNKNOWN_SCHEMA", AvroEventCodec.encodeSingleObject(foreignRecord(), foreignRecord().getSchema()));
        bad.put("MISSING_REQUIRED_FIELD", AvroEventCodec.encodeSingleObject(withoutRevision(caseId), WITHOUT_REVISION));
        bad.put(Rejection.NEGATIVE_REVISION, codec.encode(EVENTS, CaseEvents.changed(caseId, -1).build(), false));
        bad.put(Rejection.INVALID_CASE_ID, codec.encode(EVENTS, notAUuid, false));
        bad.put(Rejection.UNEXPECTED_RECORD_TYPE, codec.encode(EVENTS, CaseAssignment.newBuilder()
                .setCaseId(caseId.toString()).setAssignmentRevision(9).build(), false));
        bad.put(Rejection.NULL_VALUE, null);
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", "00-trace".getBytes(StandardCharsets.UTF_8));

        bad.values().forEach(value -> events.pipeInput(new TestRecord<>(key, value, headers)));
        send(events, CaseEvents.changed(caseId, 2).worker("w-after").build());

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.REASON))
                .containsExactlyElementsOf(bad.keySet());
        for (int offset = 0; offset < dead.size(); offset++) {
            TestRecord<byte[], byte[]> record = dead.get(offset);
            assertThat(record.key()).isEqualTo(key);
            assertThat(record.value()).isEqualTo(new ArrayList<>(bad.values()).get(offset));
            assertThat(DeadLetters.header(record.headers(), "traceparent")).isEqualTo("00-trace");
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(EVENTS);
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_PARTITION)).isEqualTo("0");
            assertThat(DeadLetters.header(record.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo(Integer.toString(offset));
            assertThat(DeadLetters.header(record.headers(), DeadLetters.MESSAGE)).isNotBlank();
            assertThat(DeadLetters.header(record.headers(), DeadLetters.FAILED_AT)).isNotBlank();
        }
        assertThat(assignments.readValuesToList()).extracting(ProjectorTopologyTests::describe)
                .containsExactly("w-after/supervisor-1@2");
        assertThat(registry.get("case_assignments.events.dead_lettered").tag("reason", "MISSING_REQUIRED_FIELD")
                .counter().count()).isEqualTo(1);
    }

    @Test
    void shouldNotDeadLetterAGoodRecordWhileTheRegistryIsUnreachable() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AvroEventCodec unreachable = new AvroEventCodec(SerdeSettings.from(Map.of(SerdeSettings.REGISTRY_URL,
                "http://127.0.0.1:" + closedPort, SerdeSettings.REGISTRY_TIMEOUT_MS, "500")), BundledSchemas.current());
        StreamsBuilder builder = new StreamsBuilder();
        new ProjectorTopology(TOPICS, new CaseEventReader(unreachable), new IngestMetrics(registry, "projector"),
                new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(50)),
                pendingBatch(), true)
                .addTo(builder);
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "projector-topology-registry-down");
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("registry-down").toString());
        byte[] confluentFramed = {0, 0, 0, 0, 7, 2, 'x'};

        try (TopologyTestDriver down = new TopologyTestDriver(builder.build(), config)) {
            TestInputTopic<byte[], byte[]> input = down.createInputTopic(EVENTS, new ByteArraySerializer(),
                    new ByteArraySerializer());

            assertThatThrownBy(() -> input.pipeInput("k".getBytes(StandardCharsets.UTF_8), confluentFramed))
                    .cause().isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.failure()).isEqualTo(DecodeFailure.REGISTRY_UNAVAILABLE));
            assertThat(down.createOutputTopic(TOPICS.deadLetter().name(), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()).isEmpty()).isTrue();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 7, 20260801})
    void shouldPublishStrictlyIncreasingRevisionsEndingAtTheHighestForAnyArrivalOrder(long seed) {
        Random random = new Random(seed);
        Map<UUID, Long> highest = new HashMap<>();
        List<SpecificRecord> arrivals = new ArrayList<>();
        for (int c = 0; c < 50; c++) {
            UUID caseId = UUID.randomUUID();
            int changes = random.nextInt(6);
            arrivals.add(CaseEvents.created(caseId).build());
            for (int revision = 1; revision <= changes; revision++) {
                arrivals.add(CaseEvents.changed(caseId, revision).build());
            }
            highest.put(caseId, (long) changes);
        }
        for (int d = 0; d < 40; d++) {
            arrivals.add(arrivals.get(random.nextInt(arrivals.size())));
        }
        Collections.shuffle(arrivals, random);

        arrivals.forEach(event -> send(events, event));

        Map<UUID, Long> last = new HashMap<>();
        for (SpecificRecord value : assignments.readValuesToList()) {
            CaseAssignment assignment = (CaseAssignment) value;
            UUID caseId = UUID.fromString(assignment.getCaseId());
            Long previous = last.put(caseId, assignment.getAssignmentRevision());
            assertThat(previous == null || previous < assignment.getAssignmentRevision())
                    .as("seed %d: case %s published revision %d after %d", seed, caseId,
                            assignment.getAssignmentRevision(), previous).isTrue();
        }
        assertThat(last).as("seed %d", seed).isEqualTo(highest);
    }

    @Test
    void shouldNeedNoRepartitionTopicSoEachCaseStaysOnItsInputPartition() {
        StreamsBuilder builder = new StreamsBuilder();
        new ProjectorTopology(TOPICS, new CaseEventReader(codec), new IngestMetrics(registry, "projector"),
                pendingBatch(), true)
                .addTo(builder);

        var description = builder.build().describe();

        assertThat(description.subtopologies()).hasSize(1);
        assertThat(description.toString()).doesNotContain("repartition");
    }

    @Test
    void shouldShowTheDatabaseWriteAndTheRoutesInItsDescription() {
        StreamsBuilder builder = new StreamsBuilder();
        new ProjectorTopology(TOPICS, new CaseEventReader(codec), new IngestMetrics(registry, "projector"),
                pendingBatch(), true)
                .addTo(builder);

        String description = builder.build().describe().toString();

        assertThat(description).contains("written-to-postgresql-before-each-commit", "route-dead-letter", "route-update");
    }

    private void send(TestInputTopic<byte[], byte[]> topic, SpecificRecord event) {
        topic.pipeInput(CaseEvents.caseIdOf(event).getBytes(StandardCharsets.UTF_8), codec.encode(EVENTS, event, false));
    }

    private static String describe(SpecificRecord value) {
        CaseAssignment a = (CaseAssignment) value;
        return a.getAssignedWorkerSub() + "/" + a.getSupervisorSub() + "@" + a.getAssignmentRevision();
    }

    private static GenericRecord foreignRecord() {
        Schema schema = new Schema.Parser().parse("""
                {"type":"record","name":"InvoicePaid","namespace":"org.example.billing",
                 "fields":[{"name":"invoice_id","type":"string"}]}""");
        GenericRecord record = new GenericData.Record(schema);
        record.put("invoice_id", "inv-1");
        return record;
    }

    private static GenericRecord withoutRevision(UUID caseId) {
        GenericRecord record = new GenericData.Record(WITHOUT_REVISION);
        record.put("event_id", UUID.randomUUID().toString());
        record.put("case_id", caseId.toString());
        record.put("assigned_worker_sub", "w");
        record.put("supervisor_sub", "s");
        record.put("occurred_at", 0L);
        return record;
    }

    private static Schema withoutField(Schema schema, String name) {
        List<Schema.Field> fields = schema.getFields().stream().filter(f -> !f.name().equals(name))
                .map(f -> new Schema.Field(f, f.schema())).toList();
        return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
    }
}
