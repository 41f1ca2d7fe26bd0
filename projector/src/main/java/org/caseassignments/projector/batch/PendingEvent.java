package org.caseassignments.projector.batch;

import java.time.Instant;

import org.apache.kafka.common.header.Header;
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

    /** Bytes of an accepted event besides its record's: the update, its strings, the record's objects. */
    private static final int OVERHEAD_BYTES = 256;

    /**
     * About how much heap holding this event keeps: its record's key, value and headers (up to the input topics'
     * record size each), and the event itself. What a task's byte budget counts.
     */
    long retainedBytes() {
        long bytes = OVERHEAD_BYTES + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        if (headers != null) {
            for (Header header : headers) {
                bytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
            }
        }
        return bytes;
    }

    /** The same event and record, written as {@code update} (the same case, with the jurisdiction it keeps). */
    PendingEvent withUpdate(AssignmentUpdate update) {
        return new PendingEvent(update, occurredAt, timestamp, key, value, headers, topic, partition, offset);
    }

    /** An event without its record (tests, and callers that never dead-letter). */
    public static PendingEvent of(AssignmentUpdate update, long timestamp) {
        return new PendingEvent(update, null, timestamp, null, null, null, null, -1, -1);
    }
}
