package org.caseassignments.projector.stream;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.caseassignments.projector.BeforeStreamsStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Where the projector's group starts on each input partition. Kafka Streams runs with {@code auto.offset.reset=none}
 * ({@link StreamsConfiguration}): a committed offset below the partition's log start (retention deleted input the
 * group had not read) stops the projector by name ({@link InputGapHealthIndicator}) instead of jumping over the gap.
 * A partition the group has no committed offset on starts from its log start only when that skips nothing the
 * projection may lack: nothing was ever deleted from the partition (its log start is 0: a brand-new topic, a
 * partition added to it), or the projection is empty (a first start), or {@code projector.input.start-at-log-start}
 * says an operator accepts it. Before the stream threads start, this commits the log start as the group's offset
 * there. Any other such partition — a group whose offsets expired, a changed group id, on a projection that holds
 * rows, after input was deleted — is left without an offset, so its stream thread fails and the projector stops by
 * name ("no committed offset, N records deleted"). Committing takes a group with no member running; when another
 * instance already runs, the partitions it reads were started by it, and one it never committed on stops the
 * instance that gets it, by name, until the offsets are set (docs/operations.md).
 */
final class InputOffsets extends BeforeStreamsStart {

    private static final Logger log = LoggerFactory.getLogger(InputOffsets.class);
    private static final long ADMIN_TIMEOUT_SECONDS = 30;

    private static final String PROJECTION_EMPTY = """
            SELECT NOT EXISTS (SELECT 1 FROM case_assignments)
            """;

    private final KafkaAdmin kafkaAdmin;
    private final JdbcTemplate jdbc;
    private final String groupId;
    private final Set<String> topics;
    private final boolean startAtLogStart;

    InputOffsets(KafkaAdmin kafkaAdmin, JdbcTemplate jdbc, String groupId, Set<String> topics, boolean startAtLogStart) {
        this.kafkaAdmin = kafkaAdmin;
        this.jdbc = jdbc;
        this.groupId = groupId;
        this.topics = topics;
        this.startAtLogStart = startAtLogStart;
    }

    @Override
    protected void run() {
        try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames()
                    .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> never = new HashMap<>();
            described.values().forEach(topic -> topic.partitions().forEach(p -> {
                TopicPartition partition = new TopicPartition(topic.name(), p.partition());
                if (committed.get(partition) == null) {
                    never.put(partition, OffsetSpec.earliest());
                }
            }));
            if (never.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> logStarts = admin.listOffsets(never).all()
                    .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
            boolean anyDeleted = logStarts.values().stream().anyMatch(start -> start > 0);
            boolean allowed = startAtLogStart || !anyDeleted || projectionEmpty();
            Map<TopicPartition, OffsetAndMetadata> starts = logStarts.entrySet().stream()
                    .filter(e -> allowed || e.getValue() == 0)
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> new OffsetAndMetadata(e.getValue())));
            if (!starts.isEmpty()) {
                admin.alterConsumerGroupOffsets(groupId, starts).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                log.info("Group {} starts from the log start of the input partitions it has no committed offset on: {}",
                        groupId, starts.entrySet().stream().map(e -> e.getKey() + "@" + e.getValue().offset())
                                .sorted().collect(Collectors.joining(", ")));
            }
            if (starts.size() < logStarts.size()) {
                log.error("Group {} has no committed offset on input partitions whose records were deleted, and the "
                        + "projection holds rows: starting from the log start would skip input it may lack. Left "
                        + "without an offset, they stop the projector by name (docs/operations.md#projectorinputgap): {}",
                        groupId, logStarts.entrySet().stream().filter(e -> !starts.containsKey(e.getKey()))
                                .map(e -> e.getKey() + ": " + e.getValue() + " records deleted").sorted()
                                .collect(Collectors.joining(", ")));
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupNotEmptyException || e.getCause() instanceof UnknownMemberIdException) {
                log.info("Group {} has members running: the partitions they read were started by them", groupId);
            } else {
                throw new IllegalStateException("Cannot read or set where group " + groupId + " starts on "
                        + topics + ": " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("The broker did not say within " + ADMIN_TIMEOUT_SECONDS + " s where group "
                    + groupId + " starts on " + topics, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading where group " + groupId + " starts", e);
        }
    }

    private boolean projectionEmpty() {
        return Boolean.TRUE.equals(jdbc.queryForObject(PROJECTION_EMPTY, Boolean.class));
    }
}
