package org.caseassignments.backfill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.RegistryRetry;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** What every job that reads the case event topics itself (replay, rebuild) reads them with. */
public final class EventTopics {

    private EventTopics() {
    }

    /**
     * The serde settings of the jobs: the projector's ({@link SchemaRegistryProperties}, {@code SCHEMA_REGISTRY_URL}),
     * over the Kafka client properties ({@code spring.kafka.properties.schema.registry.url}).
     */
    public static SerdeSettings serdeSettings(KafkaProperties kafka, SchemaRegistryProperties registry) {
        return SerdeSettings.from(registry.serdeConfig(kafka.getProperties()));
    }

    /** The projector's decoder, with these serde settings (registry or bundled schemas). */
    public static CaseEventReader reader(SerdeSettings settings) {
        return new CaseEventReader(new AvroEventCodec(settings, BundledSchemas.current()));
    }

    /**
     * Reads one record with the projector's decoder, waiting out an unreachable schema registry under the projector's
     * policy ({@link RegistryRetry}); then stops the job, saying {@code whatNow} (what stays done, how to go on).
     */
    public static Ingested read(CaseEventReader reader, ConsumerRecord<byte[], byte[]> record, String whatNow) {
        try {
            return RegistryRetry.DEFAULT.read(reader, record.key(), record.value(), record.headers());
        } catch (EventDecodingException e) {
            throw new IllegalStateException("cannot decode " + record.topic() + "-" + record.partition() + "@"
                    + record.offset() + " after retrying for " + RegistryRetry.DEFAULT.giveUpAfter() + ": "
                    + e.getMessage() + "; " + whatNow, e);
        }
    }

    /**
     * Refuses to start a job whose first records it would read are framed for a schema registry (Confluent wire
     * format) when none is configured: each would be unreadable (a replay would dead-letter the whole topic, a
     * rebuild would swap in a table without them). Reads the first record of each partition from the consumer's
     * current position, up to {@code ends}, and puts every position back. A record of neither framing is left to
     * the job (it is bad input, dead-lettered or passed over as usual).
     */
    public static void requireReadableFraming(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends,
                                              SerdeSettings settings) {
        if (settings.usesRegistry()) {
            return;
        }
        Map<TopicPartition, Long> starts = new HashMap<>();
        ends.forEach((p, end) -> {
            long position = consumer.position(p);
            if (position < end) {
                starts.put(p, position);
            }
        });
        Map<TopicPartition, ConsumerRecord<byte[], byte[]>> firsts = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (firsts.size() < starts.size() && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                firsts.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record);
            }
        }
        starts.forEach(consumer::seek);
        List<String> registryFramed = firsts.values().stream().filter(EventTopics::registryFramed)
                .map(r -> r.topic() + "-" + r.partition() + "@" + r.offset()).sorted().toList();
        if (!registryFramed.isEmpty()) {
            throw new UnreadableFraming("the first records of " + String.join(", ", registryFramed)
                    + " are framed for a schema registry (Confluent wire format) but no registry is configured; set "
                    + "SCHEMA_REGISTRY_URL (as for the projector) and run again. Nothing was read into the projection "
                    + "or dead-lettered");
        }
    }

    /** A job's refusal to start: its first records are framed for a registry it has no setting for. */
    public static final class UnreadableFraming extends IllegalStateException {
        UnreadableFraming(String message) {
            super(message);
        }
    }

    private static boolean registryFramed(ConsumerRecord<byte[], byte[]> record) {
        try {
            return AvroEventCodec.framingOf(record.value()) == AvroEventCodec.Framing.CONFLUENT;
        } catch (EventDecodingException e) {
            return false;
        }
    }

    /**
     * A consumer that reads only committed records and commits nothing by itself, at most
     * {@code maxPollRecords} per poll; the caller sets its group and where it starts.
     */
    public static Map<String, Object> consumerConfig(KafkaProperties kafka, int maxPollRecords) {
        Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        return config;
    }

    /** Every partition of the topics; a topic that does not exist stops the job. */
    public static List<TopicPartition> partitions(Consumer<?, ?> consumer, List<String> topics, KafkaProperties kafka) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist on " + kafka.getBootstrapServers());
            }
            infos.forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        return partitions;
    }
}
