package org.caseassignments.projector.testsupport;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.testkit.TestKafka;

/** Committed offsets of consumer groups and end offsets of topics, read through the admin client. */
public final class KafkaOffsets {

    private KafkaOffsets() {
    }

    /** The group's committed offset per partition of {@code topic} (partitions without a commit are absent). */
    public static Map<Integer, Long> committed(String groupId, String topic) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            return offsets.entrySet().stream()
                    .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                    .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read the committed offsets of group " + groupId, e);
        }
    }

    /** Deletes the records of partition {@code partition} of {@code topic} below {@code offset}, as retention would. */
    public static void deleteBelow(String topic, int partition, long offset) {
        try (Admin admin = admin()) {
            admin.deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset)))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot delete the records of " + topic + "-" + partition + " below " + offset, e);
        }
    }

    /** The end offset (next offset to be written) per partition. */
    public static Map<Integer, Long> end(String topic, int partitions) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetSpec> request = java.util.stream.IntStream.range(0, partitions).boxed()
                    .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
            return admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read the end offsets of " + topic, e);
        }
    }

    /** Whether the group has committed every partition of a plainly written topic up to its end. */
    public static boolean caughtUp(String groupId, String topic, int partitions) {
        Map<Integer, Long> end = end(topic, partitions);
        Map<Integer, Long> committed = committed(groupId, topic);
        Set<Integer> written = end.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        return written.stream().allMatch(p -> committed.get(p) != null && committed.get(p) >= end.get(p));
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()));
    }
}
