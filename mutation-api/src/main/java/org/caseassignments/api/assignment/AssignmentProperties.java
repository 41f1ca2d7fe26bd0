package org.caseassignments.api.assignment;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the assignment reads ({@code api.assignment.*}); each has an environment-variable override in
 * application.yml.
 *
 * @param maxWait            the longest a request may wait for the projection to reach a revision
 *                           ({@code API_ASSIGNMENT_MAX_WAIT}); a longer {@code wait} is 400
 * @param recheckInterval    how often the waiting requests' cases are read again when no commit of the projector
 *                           was announced meanwhile ({@code API_ASSIGNMENT_RECHECK_INTERVAL}): the safety net for a
 *                           lost notification, one query for all waiters
 * @param historyMaxPageSize the most entries one history page holds ({@code API_ASSIGNMENT_HISTORY_MAX_PAGE_SIZE})
 */
@ConfigurationProperties("api.assignment")
public record AssignmentProperties(@DefaultValue("10s") Duration maxWait,
                                   @DefaultValue("1s") Duration recheckInterval,
                                   @DefaultValue("500") int historyMaxPageSize) {

    public AssignmentProperties {
        if (maxWait.isNegative() || maxWait.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("api.assignment.max-wait (API_ASSIGNMENT_MAX_WAIT) must be between 0 and "
                    + "1 minute; it is " + maxWait);
        }
        if (recheckInterval.isNegative() || recheckInterval.isZero()) {
            throw new IllegalArgumentException("api.assignment.recheck-interval (API_ASSIGNMENT_RECHECK_INTERVAL) must be "
                    + "positive; it is " + recheckInterval);
        }
        if (historyMaxPageSize < 1) {
            throw new IllegalArgumentException("api.assignment.history-max-page-size "
                    + "(API_ASSIGNMENT_HISTORY_MAX_PAGE_SIZE) must be at least 1; it is " + historyMaxPageSize);
        }
    }
}
