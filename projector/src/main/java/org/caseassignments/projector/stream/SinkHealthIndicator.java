package org.caseassignments.projector.stream;

import java.time.Instant;
import java.util.Comparator;
import java.util.Map;

import org.caseassignments.store.WriterHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN from a stream thread's first failed attempt to apply a batch until that thread applies a batch
 * again — its partitions are not advancing meanwhile. Tracked per thread by the batch writer's
 * {@link WriterHealth}, so one thread's success does not hide another's failure; the writer logs the start and the
 * end of each failure streak once. (Whether the stream threads run at all is the {@code kafkaStreams} health.)
 */
final class SinkHealthIndicator implements HealthIndicator {

    private final WriterHealth writer;

    SinkHealthIndicator(WriterHealth writer) {
        this.writer = writer;
    }

    @Override
    public Health health() {
        Map<String, WriterHealth.Failing> failing = writer.failing();
        WriterHealth.Failing oldest = failing.values().stream()
                .min(Comparator.comparing(WriterHealth.Failing::since)).orElse(null);
        if (oldest != null) {
            return Health.down()
                    .withDetail("failingSince", oldest.since().toString())
                    .withDetail("failedAttempts", oldest.attempts())
                    .withDetail("error", oldest.error())
                    .withDetail("failingThreads", failing.size())
                    .build();
        }
        Health.Builder up = Health.up();
        Instant lastAppliedAt = writer.lastWrittenAt();
        if (lastAppliedAt != null) {
            up.withDetail("lastAppliedAt", lastAppliedAt.toString());
        }
        return up.build();
    }
}
