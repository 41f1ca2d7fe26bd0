package org.caseassignments.api.audit;

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
 * made): the months ahead are the margin for an outage of this job.
 */
@Configuration
@EnableScheduling
class AuditPartitions {

    private static final Logger LOG = LoggerFactory.getLogger(AuditPartitions.class);

    private final AuditRecords records;
    private final AuditProperties properties;

    AuditPartitions(AuditRecords records, AuditProperties properties) {
        this.records = records;
        this.properties = properties;
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
    }
}
