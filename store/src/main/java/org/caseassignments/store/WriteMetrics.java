package org.caseassignments.store;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of the batch writer ({@link BatchWriter}), tagged with {@code source} (projector, replay, …) so every
 * writer reports the same names. What is read and dead-lettered before a batch is the ingest path's
 * ({@code IngestMetrics}). See docs/projector.md (Metrics) for what each means.
 */
public final class WriteMetrics {

    /** The description of {@code case_assignments.events.skipped}, whose stages the writer and the ingest path count. */
    public static final String SKIPPED_DESCRIPTION = "Events that changed nothing: stale, duplicate, or superseded "
            + "within their batch. stage=filter: dropped by the projector's monotonic filter before the database; "
            + "stage=database: matched no row under the database guard";

    /**
     * The longest end-to-end lag recorded as it is: a century. A longer one (an event that happened centuries ago,
     * back to PostgreSQL's first instant in 4714 BC) is recorded as this, because a timer holds nanoseconds in a
     * long, about 292 years; every such lag sits far above the histogram's last bucket of a day anyway.
     */
    static final Duration LONGEST_RECORDED_LAG = Duration.ofDays(36_525);

    private final MeterRegistry registry;
    private final String source;
    private final Counter applied;
    private final Counter skippedByDatabase;
    private final Counter entityRowsUpdated;
    private final Counter entityRowsHealed;
    private final DistributionSummary batchSize;
    private final Timer applyTime;
    private final Counter writeFailures;
    private final Timer endToEndLag;
    private final Map<String, Counter> conflicting = new ConcurrentHashMap<>();

    public WriteMetrics(MeterRegistry registry, String source) {
        this.registry = registry;
        this.source = source;
        this.applied = Counter.builder("case_assignments.events.applied")
                .description("Events that moved a projection row forward (after in-batch reduction)")
                .tag("source", source).register(registry);
        this.skippedByDatabase = skipped(registry, source, "database");
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
        this.writeFailures = Counter.builder("case_assignments.batch.failures")
                .description("Attempts to write a batch that failed transiently and were retried or given up; "
                        + "no offset moves while they last")
                .tag("source", source).register(registry);
        this.endToEndLag = Timer.builder("case_assignments.lag.end_to_end")
                .description("From an event's occurred_at to the commit of the PostgreSQL transaction that wrote it")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10)).maximumExpectedValue(Duration.ofDays(1))
                .tag("source", source).register(registry);
    }

    /** The counter {@code case_assignments.events.skipped} of one stage ({@code database}, {@code filter}). */
    public static Counter skipped(MeterRegistry registry, String source, String stage) {
        return Counter.builder("case_assignments.events.skipped")
                .description(SKIPPED_DESCRIPTION)
                .tag("source", source).tag("stage", stage).register(registry);
    }

    void batchApplied(int events, ApplyResult result, Duration took) {
        int moved = result.insertedCases().size() + result.advancedCases().size();
        applied.increment(moved);
        skippedByDatabase.increment(events - moved);
        entityRowsUpdated.increment(result.entityRowsUpdated());
        entityRowsHealed.increment(result.entityRowsHealed());
        batchSize.record(events);
        applyTime.record(took);
    }

    /** A transient failure of one attempt to write a batch. */
    void writeFailed() {
        writeFailures.increment();
    }

    /** An event that met another assignment at its revision (stage: batch or database); the first stays. */
    void conflicting(String stage) {
        conflicting.computeIfAbsent(stage, s -> Counter.builder("case_assignments.events.conflicting")
                .description("Events that claimed a revision their case already had with another assignment; "
                        + "the first stays (an upstream contract violation)")
                .tag("source", source).tag("stage", s)
                .register(registry)).increment();
    }

    /**
     * One written event's end-to-end lag; negative lags (clock skew) count as zero, and lags above
     * {@link #LONGEST_RECORDED_LAG} as that.
     */
    void endToEndLag(Duration lag) {
        endToEndLag.record(lag.isNegative() ? Duration.ZERO
                : lag.compareTo(LONGEST_RECORDED_LAG) > 0 ? LONGEST_RECORDED_LAG : lag);
    }
}
