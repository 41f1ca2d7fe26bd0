package org.caseassignments.api.idempotency;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Idempotency-Key settings ({@code api.idempotency.*}); each has an environment-variable override in application.yml.
 *
 * @param retention     how long a key is kept, at least ({@code API_IDEMPOTENCY_RETENTION}); a retry after that creates again
 * @param required      whether a create without the header is refused, 400 {@code IDEMPOTENCY_KEY_REQUIRED}
 *                      ({@code API_IDEMPOTENCY_REQUIRED})
 * @param purgeInterval the pause between two purges of expired keys ({@code API_IDEMPOTENCY_PURGE_INTERVAL})
 * @param purgeBatch    how many keys one purge statement deletes at most, so that none holds many row locks
 *                      for long ({@code API_IDEMPOTENCY_PURGE_BATCH})
 */
@ConfigurationProperties("api.idempotency")
public record IdempotencyProperties(@DefaultValue("24h") Duration retention, @DefaultValue("false") boolean required,
                                    @DefaultValue("10m") Duration purgeInterval, @DefaultValue("1000") int purgeBatch) {

    public IdempotencyProperties {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("api.idempotency.retention (API_IDEMPOTENCY_RETENTION) must be positive; "
                    + "it is " + retention);
        }
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("api.idempotency.purge-interval (API_IDEMPOTENCY_PURGE_INTERVAL) must be "
                    + "positive; it is " + purgeInterval);
        }
        if (purgeBatch < 1) {
            throw new IllegalArgumentException("api.idempotency.purge-batch (API_IDEMPOTENCY_PURGE_BATCH) must be at "
                    + "least 1; it is " + purgeBatch);
        }
    }
}
