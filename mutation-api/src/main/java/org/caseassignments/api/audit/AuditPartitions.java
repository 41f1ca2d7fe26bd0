package org.caseassignments.api.audit;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Keeps the month partitions of the audit table {@code api.audit.partitions-ahead} months ahead, at
 * startup and every {@code api.audit.partition-check-interval}, through a database function that creates
 * them as the schema's owner: the API's role owns nothing it could change. Every instance does it; the
 * function serializes them. A write past the last partition fails with its audit record (and so is not
 * made): the months ahead are the margin for an outage of this job. After each check the gauge
 * {@code audit.partitions.ahead} says how many months after the current one have a partition (−1 until the
 * first check could read it), so an alert can fire while there is still time.
 */
@Configuration
@EnableScheduling
class AuditPartitions {

    private static final Logger LOG = LoggerFactory.getLogger(AuditPartitions.class);

    static final String AHEAD_METRIC = "audit.partitions.ahead";

    private final AuditRecords records;
    private final AuditProperties properties;
    private final AtomicInteger monthsAhead = new AtomicInteger(-1);

    AuditPartitions(AuditRecords records, AuditProperties properties, MeterRegistry meters) {
        this.records = records;
        this.properties = properties;
        Gauge.builder(AHEAD_METRIC, monthsAhead, AtomicInteger::get).baseUnit("months")
                .description("months after the current one (UTC) that have an audit partition").register(meters);
    }

    @Scheduled(initialDelay = 0, fixedDelayString = "${api.audit.partition-check-interval:6h}")
    void ensureAhead() {
        try {
            int created = records.ensurePartitions(properties.partitionsAhead());
            if (created > 0) {
                LOG.info("Created {} audit month partitions; they now reach {} months ahead", created,
                        properties.partitionsAhead());
            }
        } catch (RuntimeException e) {
            LOG.error("Could not create the audit partitions of the next {} months; writes fail from the first "
                    + "month without one, so fix this before then (docs/audit.md)", properties.partitionsAhead(), e);
        }
        try {
            monthsAhead.set(records.monthsAhead());
        } catch (RuntimeException e) {
            LOG.error("Could not count the audit month partitions ahead", e);
        }
    }
}
