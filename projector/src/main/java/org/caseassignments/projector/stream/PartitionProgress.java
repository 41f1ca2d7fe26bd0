package org.caseassignments.projector.stream;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.TopicPartition;

/**
 * What the input partitions of this instance's group have done: per partition, its committed offset, its end, and
 * since when the committed offset has not moved. A partition is stalled when it has input beyond its committed
 * offset, has not moved for {@code maxStall}, and this instance ran its task within {@code maxStall} (another
 * instance's partitions are that instance's to report). Only what was observed counts: the clock of a partition
 * starts at its first observation. Thread-safe.
 */
final class PartitionProgress {

    /** A partition that has not moved for longer than the bound. */
    record Stalled(TopicPartition partition, long committed, long end, Instant since, Duration age) {
    }

    private record Observed(long committed, Instant since, long end, Instant ownedAt) {
    }

    private final Map<TopicPartition, Observed> partitions = new ConcurrentHashMap<>();

    /**
     * One observation.
     *
     * @param committed the group's committed offset (0 when it has none)
     * @param end       the partition's end offset
     * @param owned     whether a task of this instance reads it now
     */
    void observe(TopicPartition partition, long committed, long end, boolean owned, Instant now) {
        partitions.compute(partition, (p, before) -> {
            Instant since = before == null || before.committed() != committed ? now : before.since();
            Instant ownedAt = owned ? now : before == null ? null : before.ownedAt();
            return new Observed(committed, since, end, ownedAt);
        });
    }

    /** Records after the group's committed offset at the last observation; NaN before the first. */
    double lag(TopicPartition partition) {
        Observed observed = partitions.get(partition);
        return observed == null ? Double.NaN : Math.max(0, observed.end() - observed.committed());
    }

    /** The stalled partitions, the longest stalled first. */
    List<Stalled> stalled(Duration maxStall, Instant now) {
        List<Stalled> stalled = new ArrayList<>();
        partitions.forEach((partition, o) -> {
            Duration age = Duration.between(o.since(), now);
            boolean ownedLately = o.ownedAt() != null && !o.ownedAt().isBefore(now.minus(maxStall));
            if (o.end() > o.committed() && age.compareTo(maxStall) > 0 && ownedLately) {
                stalled.add(new Stalled(partition, o.committed(), o.end(), o.since(), age));
            }
        });
        stalled.sort(Comparator.comparing(Stalled::since));
        return stalled;
    }
}
