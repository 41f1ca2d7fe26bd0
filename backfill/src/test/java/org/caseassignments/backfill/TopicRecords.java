package org.caseassignments.backfill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.caseassignments.testkit.TestKafka;

/** Every record a topic holds now, for reading what a job dead-lettered. */
public final class TopicRecords {

    private TopicRecords() {
    }

    public static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Map<TopicPartition, Long> ends = LiveApplier.endOffsets(topic);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            long total = ends.values().stream().mapToLong(Long::longValue).sum();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return records.size() >= total;
            });
        }
        return records;
    }
}
