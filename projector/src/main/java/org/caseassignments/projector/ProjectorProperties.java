package org.caseassignments.projector;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Projector settings ({@code projector.*}); each has an environment-variable override in
 * application.yml. The Kafka bootstrap servers and client security are Spring Boot's
 * {@code spring.kafka.*} settings, shared by every client of the projector.
 *
 * @param applicationId Kafka Streams application id: names the input consumer group, the state
 *                      store's changelog topic and, with {@code .sink}, the sink's consumer group
 * @param topics        topic names
 * @param partitions    partitions of the topics the projector creates when they do not exist
 * @param registryUrl   Confluent-compatible schema registry; empty for single-object encoding
 * @param streams       the decode-and-filter stage
 * @param sink          the PostgreSQL stage
 */
@ConfigurationProperties("projector")
public record ProjectorProperties(@DefaultValue("case-assignments-projector") String applicationId,
                                  @DefaultValue Topics topics,
                                  @DefaultValue("3") int partitions,
                                  String registryUrl,
                                  @DefaultValue Streams streams,
                                  @DefaultValue Sink sink) {

    public record Topics(@DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> events,
                         @DefaultValue(CaseTopics.DEFAULT_ASSIGNMENTS) String assignments,
                         @DefaultValue(CaseTopics.DEFAULT_DEAD_LETTER) String deadLetter) {
    }

    /**
     * @param stateDir       where the monotonic filter's RocksDB store lives (Kafka Streams' default when empty)
     * @param commitInterval how often the Streams transaction commits: input offsets, store changes and
     *                       output records become visible together
     * @param threads        stream threads of this instance
     */
    public record Streams(String stateDir,
                          @DefaultValue("100ms") Duration commitInterval,
                          @DefaultValue("1") int threads) {
    }

    /**
     * @param groupId        consumer group of the sink; {@code <applicationId>.sink} when empty
     * @param maxBatchEvents most records applied in one PostgreSQL transaction ({@code max.poll.records})
     * @param maxBatchWait   how long the broker may hold a fetch to fill a batch ({@code fetch.max.wait.ms})
     * @param minBatchBytes  bytes the broker waits for before answering a fetch early ({@code fetch.min.bytes})
     * @param concurrency    sink consumers in this instance, each with its own transaction; at most one per
     *                       partition is busy, so the default matches the default partition count
     * @param retry          backoff while PostgreSQL fails
     */
    public record Sink(String groupId,
                       @DefaultValue("5000") int maxBatchEvents,
                       @DefaultValue("200ms") Duration maxBatchWait,
                       @DefaultValue("1") int minBatchBytes,
                       @DefaultValue("3") int concurrency,
                       @DefaultValue Retry retry) {
    }

    /** Exponential backoff between attempts to apply a failed batch; it never gives up. */
    public record Retry(@DefaultValue("200ms") Duration initialInterval,
                        @DefaultValue("2.0") double multiplier,
                        @DefaultValue("10s") Duration maxInterval) {
    }

    public String sinkGroupId() {
        return sink.groupId() == null || sink.groupId().isBlank() ? applicationId + ".sink" : sink.groupId();
    }

    /** Serde settings: the shared Kafka client properties, plus the registry URL when one is configured. */
    public Map<String, Object> serdeConfig(Map<String, String> kafkaClientProperties) {
        Map<String, Object> config = new HashMap<>(kafkaClientProperties);
        if (registryUrl != null && !registryUrl.isBlank()) {
            config.put(SerdeSettings.REGISTRY_URL, registryUrl.trim());
        }
        return config;
    }
}
