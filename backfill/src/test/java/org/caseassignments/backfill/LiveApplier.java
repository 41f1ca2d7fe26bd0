package org.caseassignments.backfill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.WriteMetrics;
import org.caseassignments.testkit.TestKafka;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stands in for the live projector: a real Kafka consumer on its own thread, feeding each polled
 * batch through ingest's {@link CaseEventReader} and store's {@link BatchWriter} (one transaction per
 * batch, offsets committed after it) — the path the projector takes into the projection.
 */
public final class LiveApplier implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final CaseEventReader reader = new CaseEventReader(AvroEventCodec.singleObject());
    private final BatchWriter applier;
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    public LiveApplier(DataSource dataSource, String topic, int maxPollRecords, CountDownLatch start) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "live-" + TestKafka.uniqueTopic("applier"));
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.applier = BatchWriter.once(new TransactionTemplate(new DataSourceTransactionManager(dataSource)),
                new AssignmentWriter(new JdbcTemplate(dataSource)), new WriteMetrics(new SimpleMeterRegistry(), "projector"));
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.thread = new Thread(() -> run(start), "live-applier");
        thread.start();
    }

    private void run(CountDownLatch start) {
        try {
            start.await();
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
                List<AssignmentUpdate> batch = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (reader.read(record.key(), record.value()) instanceof Ingested.Accepted accepted) {
                        batch.add(accepted.update());
                    }
                }
                if (!batch.isEmpty()) {
                    applier.write(BatchReduction.reduce(batch));
                }
                consumer.commitSync();
                for (TopicPartition partition : records.partitions()) {
                    positions.put(partition, consumer.position(partition));
                }
            }
        } catch (Throwable e) {
            failure.set(e);
        } finally {
            consumer.close();
        }
    }

    /** The end offset of each partition of {@code topic}, now. */
    public static Map<TopicPartition, Long> endOffsets(String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> probe = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = probe.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            return probe.endOffsets(partitions, Duration.ofSeconds(30));
        }
    }

    /** Whether every partition has been applied up to these end offsets; rethrows the applier's failure. */
    public boolean caughtUpTo(Map<TopicPartition, Long> endOffsets) {
        if (failure.get() != null) {
            throw new IllegalStateException("the live applier failed", failure.get());
        }
        return endOffsets.entrySet().stream()
                .allMatch(end -> end.getValue() == 0 || positions.getOrDefault(end.getKey(), 0L) >= end.getValue());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(30));
        if (failure.get() != null) {
            throw new IllegalStateException("the live applier failed", failure.get());
        }
    }
}
