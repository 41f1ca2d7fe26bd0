package org.caseassignments.ingest;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.store.WriteMetrics;

/**
 * The meters of the ingest path, tagged with {@code source} (projector, replay) so both paths report the same names:
 * what is dead-lettered and filtered before the database, here, and the batch writer's own, {@link #write()}. See
 * docs/projector.md (Metrics) for what each means.
 */
public final class IngestMetrics {

    private final MeterRegistry registry;
    private final String source;
    private final WriteMetrics write;
    private final Counter skippedByFilter;
    private final Map<String, Counter> deadLettered = new ConcurrentHashMap<>();

    public IngestMetrics(MeterRegistry registry, String source) {
        this.registry = registry;
        this.source = source;
        this.write = new WriteMetrics(registry, source);
        this.skippedByFilter = WriteMetrics.skipped(registry, source, "filter");
        // Every reason at 0 from the start, so that an alert's increase() sees the first dead letter of a reason
        // (a counter born at 1 shows no increase).
        Rejection.CODES.forEach(this::deadLettered);
    }

    /** The batch writer's meters, with the same {@code source}. */
    public WriteMetrics write() {
        return write;
    }

    /** An event dropped before the database because a revision at least as high was already seen for its case. */
    public void filtered() {
        skippedByFilter.increment();
    }

    public void deadLettered(Rejection rejection) {
        deadLettered(rejection.code()).increment();
    }

    private Counter deadLettered(String reason) {
        return deadLettered.computeIfAbsent(reason, code -> Counter.builder("case_assignments.events.dead_lettered")
                .description("Records sent to the dead-letter topic, by reason")
                .tag("source", source).tag("reason", code)
                .register(registry));
    }
}
