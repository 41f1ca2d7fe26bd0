package org.caseassignments.backfill.redrive;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.OptionChecks;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options that say which dead letters a command reads and which of them it takes (a picocli mixin). */
final class DeadLetterSelection {

    @Option(names = "--dead-letter-topic", paramLabel = "TOPIC",
            description = "Dead-letter topic (default: backfill.redrive.dead-letter-topic, $CASE_EVENTS_DLQ_TOPIC, case.events.dlq).")
    String deadLetterTopic;

    @Option(names = "--reason", paramLabel = "REASON", split = ",",
            description = "Only letters with these reasons (dlq.reason), e.g. UNKNOWN_SCHEMA,DATABASE_INTEGRITY_VIOLATION.")
    Set<String> reasons;

    @Option(names = "--source-partition", paramLabel = "N", description = "Only letters of records from this partition.")
    Integer sourcePartition;

    @Option(names = "--from-offset", paramLabel = "OFFSET", description = "Only letters of records at or after this source offset.")
    Long fromOffset;

    @Option(names = "--to-offset", paramLabel = "OFFSET", description = "Only letters of records before this source offset.")
    Long toOffset;

    @Option(names = "--from-timestamp", paramLabel = "INSTANT", description = "Only letters dead-lettered at or after this time.")
    Instant fromTimestamp;

    @Option(names = "--to-timestamp", paramLabel = "INSTANT", description = "Only letters dead-lettered before this time.")
    Instant toTimestamp;

    /** The subcommand this mixin is part of, for a refusal to name it. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    String topic(RedriveProperties properties) {
        return deadLetterTopic != null ? deadLetterTopic : properties.deadLetterTopic();
    }

    /** A consumer with no group: nothing is committed, every run reads the topic from its beginning. */
    static KafkaConsumer<byte[], byte[]> consumer(KafkaProperties kafka, int maxPollRecords) {
        Map<String, Object> config = new HashMap<>(EventTopics.consumerConfig(kafka, maxPollRecords));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The selection; a partition or offset below 0, or a range that holds nothing, is bad usage. */
    DeadLetterFilter filter() {
        if (sourcePartition != null) {
            OptionChecks.atLeast(mixee, "--source-partition", sourcePartition, 0);
        }
        if (fromOffset != null) {
            OptionChecks.atLeast(mixee, "--from-offset", fromOffset, 0);
        }
        if (toOffset != null) {
            OptionChecks.atLeast(mixee, "--to-offset", toOffset, (fromOffset == null ? 0 : fromOffset) + 1);
        }
        if (fromTimestamp != null && toTimestamp != null && !toTimestamp.isAfter(fromTimestamp)) {
            throw new ParameterException(mixee.commandLine(), "--to-timestamp must be after --from-timestamp, was "
                    + toTimestamp + " (from " + fromTimestamp + ")");
        }
        return new DeadLetterFilter(reasons, sourcePartition, fromOffset, toOffset, fromTimestamp, toTimestamp);
    }
}
