package org.caseassignments.projector.batch;

import java.time.Instant;

import org.apache.kafka.common.header.Headers;
import org.caseassignments.store.AssignmentUpdate;

/**
 * An accepted event waiting in its task's batch, with the record it came in: if PostgreSQL refuses it,
 * that record is dead-lettered as it arrived (key, value, headers, where from). Only the event kept for its
 * case is held, so a batch holds one record per case.
 *
 * @param occurredAt when the event happened upstream, for the end-to-end lag (null when unknown)
 */
public record PendingEvent(AssignmentUpdate update, Instant occurredAt, long timestamp, byte[] key, byte[] value,
                           Headers headers, String topic, int partition, long offset) {

    /** The same event and record, written as {@code update} (the same case, with the jurisdiction it keeps). */
    PendingEvent withUpdate(AssignmentUpdate update) {
        return new PendingEvent(update, occurredAt, timestamp, key, value, headers, topic, partition, offset);
    }

    /** An event without its record (tests, and callers that never dead-letter). */
    public static PendingEvent of(AssignmentUpdate update, long timestamp) {
        return new PendingEvent(update, null, timestamp, null, null, null, null, -1, -1);
    }
}
