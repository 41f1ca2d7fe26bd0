package org.caseassignments.api.assignment;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the assignment reads and of the waits for the projection ({@code api.assignment.*}); each has an
 * environment-variable override in application.yml.
 *
 * @param maxWait                      the longest a request may wait for the projection to reach a revision
 *                                     ({@code API_ASSIGNMENT_MAX_WAIT}); a longer {@code wait} is 400
 * @param recheckInterval              how often the waiting requests' cases are read again when no commit of the
 *                                     projector was announced meanwhile ({@code API_ASSIGNMENT_RECHECK_INTERVAL}): the
 *                                     safety net for a lost notification, one query for all waiters, on a thread of
 *                                     its own
 * @param historyMaxPageSize           the most entries one history page holds
 *                                     ({@code API_ASSIGNMENT_HISTORY_MAX_PAGE_SIZE})
 * @param maxWaiters                   the most requests (waited reads and held writes together) one instance holds
 *                                     waiting ({@code API_ASSIGNMENT_MAX_WAITERS}); one more is 429
 *                                     {@code TOO_MANY_WAITERS}. Keep it well below
 *                                     {@code server.tomcat.max-connections}: a waiter holds a connection
 * @param maxWaitersPerSubject         the most requests one caller (a subject in a jurisdiction) holds waiting
 *                                     ({@code API_ASSIGNMENT_MAX_WAITERS_PER_SUBJECT}); one more is 429
 * @param unknownCaseWaitersPerSubject of those, the most waiting for a case the projection does not know yet, which
 *                                     cannot be authorized (no jurisdiction) ({@code
 *                                     API_ASSIGNMENT_UNKNOWN_CASE_WAITERS_PER_SUBJECT}); one more is answered at once
 *                                     as behind, without waiting
 * @param listenerTimeout              the socket timeout of the connection that listens for the projector's
 *                                     commits, whatever the pool's, and its connect timeout when the pool's settings
 *                                     name none ({@code API_ASSIGNMENT_LISTENER_TIMEOUT}): how long a hung listener
 *                                     goes unnoticed
 */
@ConfigurationProperties("api.assignment")
public record AssignmentProperties(@DefaultValue("10s") Duration maxWait,
                                   @DefaultValue("1s") Duration recheckInterval,
                                   @DefaultValue("500") int historyMaxPageSize,
                                   @DefaultValue("2000") int maxWaiters,
                                   @DefaultValue("20") int maxWaitersPerSubject,
                                   @DefaultValue("2") int unknownCaseWaitersPerSubject,
                                   @DefaultValue("30s") Duration listenerTimeout) {

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
        if (maxWaiters < 0 || maxWaitersPerSubject < 0 || unknownCaseWaitersPerSubject < 0) {
            throw new IllegalArgumentException("api.assignment.max-waiters, max-waiters-per-subject and "
                    + "unknown-case-waiters-per-subject (API_ASSIGNMENT_MAX_WAITERS, ..._PER_SUBJECT, "
                    + "API_ASSIGNMENT_UNKNOWN_CASE_WAITERS_PER_SUBJECT) must be 0 or more; they are " + maxWaiters
                    + ", " + maxWaitersPerSubject + ", " + unknownCaseWaitersPerSubject);
        }
        if (listenerTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("api.assignment.listener-timeout (API_ASSIGNMENT_LISTENER_TIMEOUT) must "
                    + "be 1 second or more; it is " + listenerTimeout);
        }
    }
}
