package org.caseassignments.ingest;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.caseassignments.store.ApplyResult;

/**
 * The meters of the ingest path, tagged with {@code source} (projector, replay) so both paths
 * report the same names. See the README for what each means.
 */
public final class IngestMetrics {

    private final MeterRegistry registry;
    private final String source;
    private final Counter applied;
    private final Counter skipped;
    private final Counter entityRowsUpdated;
    private final Counter entityRowsHealed;
    private final DistributionSummary batchSize;
    private final Timer applyTime;

    public IngestMetrics(MeterRegistry registry, String source) {
        this.registry = registry;
        this.source = source;
        this.applied = Counter.builder("case_assignments.events.applied")
                .description("Events that moved a projection row forward (after in-batch reduction)")
                .tag("source", source).register(registry);
        this.skipped = Counter.builder("case_assignments.events.skipped")
                .description("Events that changed nothing: stale, duplicate, or superseded within their batch")
                .tag("source", source).register(registry);
        this.entityRowsUpdated = Counter.builder("case_assignments.entity_rows.updated")
                .description("Placement and kinship rows that took their case's new assignment")
                .tag("source", source).register(registry);
        this.entityRowsHealed = Counter.builder("case_assignments.entity_rows.healed")
                .description("Entity rows born while their case was unknown that received its pair")
                .tag("source", source).register(registry);
        this.batchSize = DistributionSummary.builder("case_assignments.batch.size")
                .description("Events per applied batch, before reduction")
                .tag("source", source).register(registry);
        this.applyTime = Timer.builder("case_assignments.batch.apply")
                .description("Time to apply one batch in one PostgreSQL transaction")
                .tag("source", source).register(registry);
    }

    public void batchApplied(int events, ApplyResult result, Duration took) {
        int moved = result.insertedCases().size() + result.advancedCases().size();
        applied.increment(moved);
        skipped.increment(events - moved);
        entityRowsUpdated.increment(result.entityRowsUpdated());
        entityRowsHealed.increment(result.entityRowsHealed());
        batchSize.record(events);
        applyTime.record(took);
    }

    public void deadLettered(Rejection rejection) {
        Counter.builder("case_assignments.events.dead_lettered")
                .description("Input records sent to the dead-letter topic, by reason")
                .tag("source", source).tag("reason", rejection.code())
                .register(registry).increment();
    }
}
