package org.caseassignments.schemas.topics;

import java.util.List;
import java.util.Map;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.caseassignments.schemas.serde.CaseEventSerde;

/**
 * Every topic the service reads or writes. Names are configuration (defaults below); serdes are
 * fixed by the contract: keys are case ids as UTF-8 strings, values are Avro case events.
 *
 * @param events      input topics carrying {@code CaseCreated} and {@code CaseAssignmentChanged}
 *                    (one shared topic by default; one topic per type works too)
 * @param assignments the compacted output topic of {@code CaseAssignment}, one record per forward change
 * @param deadLetter  where undecodable or invalid input goes, with its original key and value bytes and headers
 * @param maxMessageBytes the largest record these topics take, one setting for both sides of every hop: the
 *                    topics' {@code max.message.bytes} and the producers' {@code max.request.size}. An input
 *                    record up to this size can always be dead-lettered: one that no longer fits with the
 *                    dead-letter headers is written cut to this size ({@code dlq.truncated})
 */
public record CaseTopics(List<Topic<String, SpecificRecord>> events,
                         Topic<String, SpecificRecord> assignments,
                         Topic<byte[], byte[]> deadLetter,
                         int maxMessageBytes) {

    public static final String DEFAULT_EVENTS = "case.events";
    public static final String DEFAULT_ASSIGNMENTS = "case.assignments";
    public static final String DEFAULT_DEAD_LETTER = "case.events.dlq";
    /** Kafka's default {@code message.max.bytes} (1 MiB + 12): what a topic created with broker defaults accepts. */
    public static final String DEFAULT_MAX_MESSAGE_BYTES = "1048588";
    /** The least size limit accepted: a dead letter's own headers take up to a few kilobytes. */
    public static final int MIN_MAX_MESSAGE_BYTES = 16_384;

    public CaseTopics {
        requireUsableSize(maxMessageBytes);
    }

    /** Refuses a size limit a dead letter cannot be cut to, naming the setting, at startup. */
    public static void requireUsableSize(int maxMessageBytes) {
        if (maxMessageBytes < MIN_MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("max-message-bytes (CASE_EVENTS_MAX_MESSAGE_BYTES) is " + maxMessageBytes
                    + "; it must be at least " + MIN_MAX_MESSAGE_BYTES + " so a dead letter with its headers fits");
        }
    }

    /**
     * @param serdeConfig Kafka-style serde settings ({@code schema.registry.url} and friends); empty for
     *                    single-object encoding against the bundled schemas
     */
    public static CaseTopics of(List<String> eventTopics, String assignmentsTopic, String deadLetterTopic,
                                Map<String, ?> serdeConfig, int maxMessageBytes) {
        Serde<SpecificRecord> avro = CaseEventSerde.of(serdeConfig);
        Serde<String> keys = Serdes.String();
        return new CaseTopics(
                eventTopics.stream().map(name -> new Topic<>(name, keys, avro)).toList(),
                new Topic<>(assignmentsTopic, keys, avro),
                new Topic<>(deadLetterTopic, Serdes.ByteArray(), Serdes.ByteArray()),
                maxMessageBytes);
    }

    /** As above, with Kafka's default size limit. */
    public static CaseTopics of(List<String> eventTopics, String assignmentsTopic, String deadLetterTopic,
                                Map<String, ?> serdeConfig) {
        return of(eventTopics, assignmentsTopic, deadLetterTopic, serdeConfig, Integer.parseInt(DEFAULT_MAX_MESSAGE_BYTES));
    }

    public List<String> eventTopicNames() {
        return events.stream().map(Topic::name).toList();
    }
}
