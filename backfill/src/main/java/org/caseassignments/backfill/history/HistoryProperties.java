package org.caseassignments.backfill.history;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param retention how long history entries are kept ({@code HISTORY_RETENTION}, e.g. {@code 3650d}); unset keeps
 *                  everything, and {@code history-purge} then needs {@code --older-than}
 */
@ConfigurationProperties("backfill.history")
record HistoryProperties(Duration retention) {

    HistoryProperties {
        if (retention != null && (retention.isNegative() || retention.isZero())) {
            throw new IllegalArgumentException("backfill.history.retention (HISTORY_RETENTION) must be positive when set; "
                    + "it is " + retention);
        }
    }
}
