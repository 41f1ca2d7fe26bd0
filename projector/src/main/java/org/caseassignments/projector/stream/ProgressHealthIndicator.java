package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Part of readiness: DOWN while an input partition this instance reads has input beyond its committed offset and
 * that offset has not moved for {@code projector.health.max-stall}, whatever the cause — a record that never
 * becomes an event (a registry that does not answer), a stream thread replaced again and again, a dead letter or a
 * commit the broker refuses, PostgreSQL refusing every batch. The details name the partition, the offset it is
 * stuck at and the last stream-thread failure. UP again by itself once the offset moves. Reads the group's
 * committed offsets and the partitions' ends with the admin client at most every {@link #REFRESH} (a probe that
 * asks more often sees the last reading). Each partition's backlog from those readings is the gauge
 * {@code case_assignments.input.lag}: end minus committed, known also when the consumer has stopped fetching (its
 * own {@code records-lag} is NaN then) and never counting the restore consumer.
 */
final class ProgressHealthIndicator implements HealthIndicator, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProgressHealthIndicator.class);
    private static final Duration REFRESH = Duration.ofSeconds(2);
    private static final long ADMIN_TIMEOUT_SECONDS = 5;

    private final StreamsBuilderFactoryBean factoryBean;
    private final KafkaAdmin kafkaAdmin;
    private final String groupId;
    private final Set<String> topics;
    private final Duration maxStall;
    private final StreamThreadFailures failures;
    private final Clock clock;
    private final MeterRegistry meters;
    private final PartitionProgress progress = new PartitionProgress();
    private final Set<TopicPartition> metered = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Instant> readAt = new AtomicReference<>(Instant.EPOCH);
    private volatile Admin admin;
    private volatile boolean down;

    ProgressHealthIndicator(StreamsBuilderFactoryBean factoryBean, KafkaAdmin kafkaAdmin, String groupId,
                            Set<String> topics, Duration maxStall, StreamThreadFailures failures, Clock clock,
                            MeterRegistry meters) {
        this.factoryBean = factoryBean;
        this.kafkaAdmin = kafkaAdmin;
        this.groupId = groupId;
        this.topics = topics;
        this.maxStall = maxStall;
        this.failures = failures;
        this.clock = clock;
        this.meters = meters;
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        Instant last = readAt.get();
        if (Duration.between(last, now).compareTo(REFRESH) >= 0 && readAt.compareAndSet(last, now)) {
            read(now);
        }
        List<PartitionProgress.Stalled> stalled = progress.stalled(maxStall, now);
        if (stalled.isEmpty()) {
            if (down) {
                down = false;
                log.warn("Every input partition of this instance moves again (or has nothing left to read)");
            }
            return Health.up().withDetail("maxStall", maxStall.toString()).build();
        }
        PartitionProgress.Stalled first = stalled.get(0);
        String reason = first.partition() + " is stuck at offset " + first.committed() + " (" + (first.end()
                - first.committed()) + " records after it) and has not moved for " + first.age().toSeconds()
                + " s (bound " + maxStall.toSeconds() + " s); " + failures.describe(first.since());
        if (!down) {
            down = true;
            log.warn("Not ready: {}", reason);
        }
        Map<String, Object> partitions = new LinkedHashMap<>();
        stalled.forEach(s -> partitions.put(s.partition().toString(), Map.of("committedOffset", s.committed(),
                "endOffset", s.end(), "since", s.since().toString(), "seconds", s.age().toSeconds())));
        return Health.down().withDetail("reason", reason).withDetail("maxStall", maxStall.toString())
                .withDetail("stalledPartitions", partitions)
                .withDetail("threadReplacements", failures.replacements()).build();
    }

    private void read(Instant now) {
        KafkaStreams streams = factoryBean.getKafkaStreams();
        if (streams == null) {
            return;
        }
        Set<TopicPartition> owned = new HashSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                task.topicPartitions().stream().filter(p -> topics.contains(p.topic())).forEach(owned::add);
            }
        }
        try {
            Admin client = admin();
            Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Set<TopicPartition> partitions = new HashSet<>(owned);
            committed.keySet().stream().filter(p -> topics.contains(p.topic())).forEach(partitions::add);
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> ends = client.listOffsets(partitions.stream()
                            .collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest())))
                    .all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
            ends.forEach((partition, end) -> {
                OffsetAndMetadata offset = committed.get(partition);
                progress.observe(partition, offset == null ? 0 : offset.offset(), end, owned.contains(partition), now);
                if (metered.add(partition)) {
                    Gauge.builder("case_assignments.input.lag", progress, p -> p.lag(partition))
                            .description("Records of an input partition after the group's committed offset (its end "
                                    + "minus its committed offset, read with the admin client)")
                            .baseUnit("records")
                            .tag("topic", partition.topic()).tag("partition", Integer.toString(partition.partition()))
                            .register(meters);
                }
            });
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // The broker's own health is kafkaStreams'; the partitions keep their last observation meanwhile.
            log.debug("Cannot read the offsets of group {}: {}", groupId, e.toString());
        }
    }

    private Admin admin() {
        Admin client = admin;
        if (client == null) {
            synchronized (this) {
                if (admin == null) {
                    admin = Admin.create(kafkaAdmin.getConfigurationProperties());
                }
                client = admin;
            }
        }
        return client;
    }

    @Override
    public void close() {
        Admin client = admin;
        if (client != null) {
            client.close(Duration.ofSeconds(5));
        }
    }
}
