package org.caseassignments.api.audit;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Audit settings ({@code api.audit.*}); each has an environment-variable override in application.yml.
 *
 * @param refusalQueueCapacity   refusal records held in memory for the writer at most
 *                               ({@code API_AUDIT_REFUSAL_QUEUE_CAPACITY}); one more is logged and counted as
 *                               dropped instead of waiting for room
 * @param refusalBatchSize       refusal records the writer inserts in one transaction at most
 *                               ({@code API_AUDIT_REFUSAL_BATCH_SIZE})
 * @param partitionsAhead        month partitions kept beyond the current one ({@code API_AUDIT_PARTITIONS_AHEAD})
 * @param partitionCheckInterval how often an instance makes sure they exist ({@code API_AUDIT_PARTITION_CHECK_INTERVAL});
 *                               it also does at startup
 * @param maxPageSize            the most records one {@code GET /audit} page holds ({@code API_AUDIT_MAX_PAGE_SIZE})
 * @param refusalBudget          refusal records one subject gets one by one per jurisdiction and window
 *                               ({@code API_AUDIT_REFUSAL_BUDGET}); the rest are summarised in one record
 * @param refusalBudgetWindow    the window of that budget ({@code API_AUDIT_REFUSAL_BUDGET_WINDOW})
 * @param crossJurisdictionReserve the share of the queue, in percent, kept for refusals of another jurisdiction's
 *                               records ({@code API_AUDIT_CROSS_JURISDICTION_RESERVE}): other refusals never fill it
 */
@ConfigurationProperties("api.audit")
public record AuditProperties(@DefaultValue("10000") int refusalQueueCapacity,
                              @DefaultValue("500") int refusalBatchSize,
                              @DefaultValue("3") int partitionsAhead,
                              @DefaultValue("6h") Duration partitionCheckInterval,
                              @DefaultValue("500") int maxPageSize,
                              @DefaultValue("100") int refusalBudget,
                              @DefaultValue("1m") Duration refusalBudgetWindow,
                              @DefaultValue("20") int crossJurisdictionReserve) {

    public AuditProperties {
        atLeast("refusal-queue-capacity", "API_AUDIT_REFUSAL_QUEUE_CAPACITY", refusalQueueCapacity, 1);
        atLeast("refusal-batch-size", "API_AUDIT_REFUSAL_BATCH_SIZE", refusalBatchSize, 1);
        atLeast("partitions-ahead", "API_AUDIT_PARTITIONS_AHEAD", partitionsAhead, 1);
        atLeast("max-page-size", "API_AUDIT_MAX_PAGE_SIZE", maxPageSize, 1);
        atLeast("refusal-budget", "API_AUDIT_REFUSAL_BUDGET", refusalBudget, 1);
        atLeast("cross-jurisdiction-reserve", "API_AUDIT_CROSS_JURISDICTION_RESERVE", crossJurisdictionReserve, 0);
        atMost("cross-jurisdiction-reserve", "API_AUDIT_CROSS_JURISDICTION_RESERVE", crossJurisdictionReserve, 90);
        atMost("partitions-ahead", "API_AUDIT_PARTITIONS_AHEAD", partitionsAhead, 120);
        positive("refusal-budget-window", "API_AUDIT_REFUSAL_BUDGET_WINDOW", refusalBudgetWindow);
        positive("partition-check-interval", "API_AUDIT_PARTITION_CHECK_INTERVAL", partitionCheckInterval);
    }

    private static void atMost(String name, String env, int value, int maximum) {
        if (value > maximum) {
            throw new IllegalArgumentException("api.audit." + name + " (" + env + ") must be at most " + maximum
                    + "; it is " + value);
        }
    }

    private static void positive(String name, String env, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("api.audit." + name + " (" + env + ") must be positive; it is " + value);
        }
    }

    private static void atLeast(String name, String env, int value, int minimum) {
        if (value < minimum) {
            throw new IllegalArgumentException("api.audit." + name + " (" + env + ") must be at least " + minimum
                    + "; it is " + value);
        }
    }
}
