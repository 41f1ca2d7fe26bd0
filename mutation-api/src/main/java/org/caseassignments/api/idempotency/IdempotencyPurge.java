package org.caseassignments.api.idempotency;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Deletes expired keys in batches of {@code api.idempotency.purge-batch}, each its own short statement,
 * until a batch comes back short. Every instance purges; two purges at once only delete fewer rows each.
 */
@Configuration
@EnableScheduling
class IdempotencyPurge {

    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyPurge.class);

    private final IdempotencyKeys keys;
    private final IdempotencyProperties properties;

    IdempotencyPurge(IdempotencyKeys keys, IdempotencyProperties properties) {
        this.keys = keys;
        this.properties = properties;
    }

    @Scheduled(fixedDelayString = "${api.idempotency.purge-interval:10m}",
            initialDelayString = "${api.idempotency.purge-interval:10m}")
    void purgeExpired() {
        try {
            int total = purge();
            if (total > 0) {
                LOG.info("Purged {} idempotency keys older than {}", total, properties.retention());
            }
        } catch (RuntimeException e) {
            LOG.warn("Purging expired idempotency keys failed; the next run tries again", e);
        }
    }

    /** The number of keys deleted. */
    int purge() {
        int total = 0;
        int deleted;
        do {
            deleted = keys.purge(properties.retention(), properties.purgeBatch());
            total += deleted;
        } while (deleted == properties.purgeBatch());
        return total;
    }
}
