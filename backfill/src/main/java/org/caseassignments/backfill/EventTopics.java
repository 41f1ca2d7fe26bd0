package org.caseassignments.backfill;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** What every job that reads the case event topics itself (replay, rebuild) reads them with. */
public final class EventTopics {

    private EventTopics() {
    }

    /** The projector's decoder, with the serde settings (registry or bundled schemas) of the Kafka properties. */
    public static CaseEventReader reader(KafkaProperties kafka) {
        return new CaseEventReader(new AvroEventCodec(SerdeSettings.from(kafka.getProperties()), BundledSchemas.current()));
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
