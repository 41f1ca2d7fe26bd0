package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.DefaultRecord;
import org.apache.kafka.common.record.DefaultRecordBatch;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.ThreadMetadata;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.projector.stream.DeadLetterLog;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Records that used to stop a partition for good — one as large as the input topic takes, whose dead
 * letter no longer fit; records whose key breaks the contract; bytes after the record — are each
 * dead-lettered once with their reason, the record behind them on the same partition is applied, the
 * committed offset moves past them, and no stream thread is replaced.
 */
class ProjectorPoisonRecordIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final String APPLICATION_ID = ProjectorInstance.uniqueApplicationId();
    private static final AvroEventCodec CODEC = AvroEventCodec.singleObject();

    private static ProjectorInstance projector;
    private static KafkaProducer<byte[], byte[]> producer;
    private static final ListAppender<ILoggingEvent> LOG = new ListAppender<>();

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void start() {
        projector = ProjectorInstance.start(DB, TOPICS, APPLICATION_ID);
        // After the start: Spring Boot resets the logging configuration as it starts.
        LOG.start();
        ((Logger) LoggerFactory.getLogger(DeadLetterLog.class)).addAppender(LOG);
        // Large enough to offer the broker a record beyond the topic's limit: the topic must be the one to refuse it.
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterAll
    static void stop() {
        producer.close();
        projector.close();
        ((Logger) LoggerFactory.getLogger(DeadLetterLog.class)).detachAppender(LOG);
    }

    @Test
    void shouldDeadLetterAnUndecodableRecordOfExactlyTheInputTopicsLimitCutToFitOnceAndMoveOn() throws Exception {
        // Given a running projector, and an undecodable value exactly as large as the input topic takes with its key
        Set<String> threads = streamThreads();
        UUID caseId = UUID.randomUUID();
        byte[] key = key(caseId);
        int limit = maxMessageBytes(TOPICS.events());
        int largest = largestValue(key, limit);
        byte[] oversized = new byte[largest];
        Arrays.fill(oversized, (byte) '{');
        assertThatThrownBy(() -> send(key, new byte[largest + 1])).as("one byte more is beyond the topic's limit")
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RecordTooLargeException.class);

        // When it is followed by a good record on the same partition
        RecordMetadata poison = send(key, oversized);
        RecordMetadata good = send(key, CODEC.encode(TOPICS.events(), CaseEvents.changed(caseId, 1).worker("w-after").build(), false));

        // Then the good record is applied and the offsets are committed past both
        awaitWorker(caseId, "w-after");
        awaitCommittedPast(good);
        // and the poison is in the dead-letter topic once, cut to fit, with what identifies the original
        ConsumerRecord<byte[], byte[]> dead = deadLetterOf(poison);
        assertThat(dead.serializedKeySize() + dead.serializedValueSize()).isLessThanOrEqualTo(limit);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.REASON)).isEqualTo("UNKNOWN_FRAMING");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.TRUNCATED)).isEqualTo("value");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ORIGINAL_SIZE)).isEqualTo(Integer.toString(largest));
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ORIGINAL_SHA256))
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(oversized)));
        assertThat(dead.key()).isEqualTo(key);
        assertThat(dead.value()).isEqualTo(Arrays.copyOf(oversized, dead.value().length)).hasSizeGreaterThan(largest - 1_000);
        // logged once, as written, where it was written; the stream threads are the ones that were there before
        assertThat(LOG.list).extracting(ILoggingEvent::getFormattedMessage)
                .filteredOn(line -> line.startsWith("Dead-lettered " + source(poison) + " to "))
                .singleElement().asString().contains("UNKNOWN_FRAMING").contains("cut value");
        assertThat(streamThreads()).isEqualTo(threads);
        assertThat(projector.streams().state().isRunningOrRebalancing()).isTrue();
    }

    @Test
    void shouldDeadLetterEveryRecordThatBreaksTheKeyContractOrCannotBeStoredOnceAndApplyTheRecordBehindIt() throws Exception {
        // Given records of one case with higher revisions than the good one, each breaking the key contract,
        // followed by bytes after the record, or a subject PostgreSQL cannot store (a NUL)
        UUID caseId = UUID.randomUUID();
        UUID otherCase = UUID.randomUUID();
        byte[] trailing = event(caseId, 9, "w-trailing");
        List<String> reasons = List.of(Rejection.INVALID_KEY, Rejection.KEY_MISMATCH, Rejection.INVALID_KEY, "MALFORMED_PAYLOAD",
                Rejection.INVALID_TEXT);
        List<RecordMetadata> bad = new ArrayList<>();
        bad.add(send("not-a-uuid".getBytes(StandardCharsets.UTF_8), event(caseId, 6, "w-not-a-uuid")));
        bad.add(send(key(otherCase), event(caseId, 7, "w-other-case")));
        bad.add(send(null, event(caseId, 8, "w-null-key")));
        bad.add(send(key(caseId), Arrays.copyOf(trailing, trailing.length + 2)));
        bad.add(send(key(caseId), event(caseId, 10, "w\0nul")));

        // When the good record follows on the same partition
        RecordMetadata good = send(key(caseId), event(caseId, 1, "w-good"));

        // Then only it is applied, to its own case, and the offsets move past all of them
        awaitWorker(caseId, "w-good");
        awaitCommittedPast(good);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ?", Long.class, otherCase))
                .isZero();
        for (int i = 0; i < bad.size(); i++) {
            ConsumerRecord<byte[], byte[]> dead = deadLetterOf(bad.get(i));
            assertThat(DeadLetters.header(dead.headers(), DeadLetters.REASON)).as(source(bad.get(i))).isEqualTo(reasons.get(i));
            assertThat(DeadLetters.header(dead.headers(), DeadLetters.MESSAGE)).isNotBlank();
            assertThat(dead.headers().lastHeader(DeadLetters.TRUNCATED)).isNull();
        }
        assertThat(deadLetterOf(bad.get(2)).key()).isNull();
    }

    @Test
    void shouldRefuseToStartWhenTheDeadLetterTopicTakesSmallerRecordsThanTheSizeLimit() {
        // Given a dead-letter topic created by hand with a smaller limit than the projector's setting
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        TestKafka.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(topics.deadLetter(), 1, (short) 1)
                .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "100000"))));

        // When / Then
        assertThatThrownBy(() -> ProjectorInstance.start(DB, topics, ProjectorInstance.uniqueApplicationId()).close())
                .rootCause().hasMessageContaining("The dead-letter topic " + topics.deadLetter() + " takes records up to 100000 bytes")
                .hasMessageContaining("max-message-bytes (1048588)");
    }

    private static byte[] event(UUID caseId, long revision, String worker) {
        return CODEC.encode(TOPICS.events(), CaseEvents.changed(caseId, revision).worker(worker).build(), false);
    }

    private static byte[] key(UUID caseId) {
        return caseId.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sent to the one partition, so every record of a test is behind the previous one. */
    private static RecordMetadata send(byte[] key, byte[] value) throws Exception {
        return producer.send(new ProducerRecord<>(TOPICS.events(), 0, key, value)).get(30, TimeUnit.SECONDS);
    }

    private static String source(RecordMetadata record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    /** The largest value a one-record batch with this key can hold within {@code limit} bytes, as the broker counts. */
    private static int largestValue(byte[] key, int limit) {
        int size = limit;
        while (DefaultRecordBatch.RECORD_BATCH_OVERHEAD + DefaultRecord.sizeInBytes(0, 0L, key.length, size, new Header[0]) > limit) {
            size--;
        }
        return size;
    }

    private static int maxMessageBytes(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            return Integer.parseInt(admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                    .get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value());
        }
    }

    private static Set<String> streamThreads() {
        return projector.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }

    private void awaitWorker(UUID caseId, String worker) {
        await("the record behind the bad ones applied").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .untilAsserted(() -> assertThat(jdbc.queryForObject(
                        "SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class, caseId))
                        .isEqualTo(worker));
    }

    private static void awaitCommittedPast(RecordMetadata record) {
        await("the committed offset past " + source(record)).atMost(Duration.ofSeconds(60))
                .until(() -> KafkaOffsets.committed(APPLICATION_ID, record.topic()).getOrDefault(record.partition(), -1L)
                        > record.offset());
    }

    /** The one committed dead letter of {@code source}: read to the end of the dead-letter topic. */
    private static ConsumerRecord<byte[], byte[]> deadLetterOf(RecordMetadata source) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, "dead-letter-reader-" + UUID.randomUUID());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPICS.deadLetter()));
            List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
            Map<Integer, Long> end = KafkaOffsets.end(TOPICS.deadLetter(), 1);
            await("the dead-letter topic read to its end").atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                return !consumer.assignment().isEmpty() && consumer.assignment().stream()
                        .allMatch(p -> consumer.position(p) >= end.getOrDefault(p.partition(), 0L));
            });
            List<ConsumerRecord<byte[], byte[]>> of = all.stream()
                    .filter(r -> source.topic().equals(DeadLetters.header(r.headers(), DeadLetters.SOURCE_TOPIC))
                            && Long.toString(source.offset()).equals(DeadLetters.header(r.headers(), DeadLetters.SOURCE_OFFSET)))
                    .toList();
            assertThat(of).as("dead letters of " + source(source)).hasSize(1);
            return of.get(0);
        }
    }
}
