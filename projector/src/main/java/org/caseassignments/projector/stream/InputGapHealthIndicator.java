package org.caseassignments.projector.stream;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Part of readiness: the named stop when the group's offset on an input partition is unusable — below the log start
 * (retention or a {@code deleteRecords} removed input the projector never read) or missing where the group has
 * committed before. Kafka Streams runs with {@code auto.offset.reset=none}, so such a partition fails its stream
 * thread with an {@link InvalidOffsetException}; {@link #stopsAt} recognises it, and the client is shut down rather
 * than the thread replaced (it would fail the same way for ever). DOWN from then on, naming each partition, its
 * committed offset, its log start and how many records were deleted unread; the gauge
 * {@code case_assignments.input.gap.partitions} counts those partitions (0 otherwise). Nothing moves until an operator
 * decides: rebuild from the snapshot, or accept the gap by setting the group's offsets (docs/operations.md).
 */
final class InputGapHealthIndicator implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(InputGapHealthIndicator.class);
    private static final long ADMIN_TIMEOUT_SECONDS = 5;

    private final KafkaAdmin kafkaAdmin;
    private final Map<TopicPartition, String> gaps = new TreeMap<>(
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));

    InputGapHealthIndicator(KafkaAdmin kafkaAdmin, MeterRegistry meters) {
        this.kafkaAdmin = kafkaAdmin;
        Gauge.builder("case_assignments.input.gap.partitions", this, InputGapHealthIndicator::partitions)
                .description("Input partitions the projector stopped at because their committed offset is below the "
                        + "log start (input deleted unread) or missing: nothing moves until an operator decides")
                .baseUnit("partitions").register(meters);
    }

    /** Whether {@code error} is an unusable input offset; if so it is recorded and the client must stop. */
    boolean stopsAt(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof InvalidOffsetException invalid) {
                record(invalid);
                return true;
            }
        }
        return false;
    }

    private void record(InvalidOffsetException invalid) {
        Map<TopicPartition, Long> offsets = invalid instanceof OffsetOutOfRangeException outOfRange
                ? outOfRange.offsetOutOfRangePartitions() : Map.of();
        Map<TopicPartition, Long> starts = logStarts(invalid.partitions());
        Map<TopicPartition, String> described = new LinkedHashMap<>();
        for (TopicPartition partition : invalid.partitions()) {
            Long committed = offsets.get(partition);
            Long start = starts.get(partition);
            String what = committed == null ? "no committed offset, " + (start == null ? "(unknown)" : start)
                    + " records deleted (log start " + (start == null ? "unknown" : start) + "): starting there would "
                    + "skip input the projection may lack"
                    : "committed offset " + committed + " is below the log start " + (start == null ? "(unknown)"
                    : start + ": " + (start - committed) + " records deleted unread");
            described.put(partition, what);
        }
        synchronized (gaps) {
            gaps.putAll(described);
        }
        log.error("Projector stopped: {}. It reads nothing until an operator decides: rebuild the projection from the "
                + "snapshot, or accept the gap by setting the group's offsets (docs/operations.md#projectorinputgap)",
                describe());
    }

    private Map<TopicPartition, Long> logStarts(Set<TopicPartition> partitions) {
        try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
            return admin.listOffsets(partitions.stream().collect(Collectors.toMap(Function.identity(),
                            p -> OffsetSpec.earliest()))).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("Cannot read the log start of {}: {}", partitions, e.toString());
            return Map.of();
        }
    }

    private String describe() {
        synchronized (gaps) {
            return gaps.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining("; "));
        }
    }

    private double partitions() {
        synchronized (gaps) {
            return gaps.size();
        }
    }

    @Override
    public Health health() {
        if (partitions() == 0) {
            return Health.up().build();
        }
        return Health.down().withDetail("reason", "input offsets unusable, the projector stopped reading: " + describe())
                .withDetail("runbook", "docs/operations.md#projectorinputgap").build();
    }
}
