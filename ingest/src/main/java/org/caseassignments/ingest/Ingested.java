package org.caseassignments.ingest;

import java.time.Instant;

import org.caseassignments.store.AssignmentUpdate;

/** The outcome of decoding and validating one record: an update to apply, or a rejection to dead-letter. */
public sealed interface Ingested {

    /**
     * @param eventId    the upstream event's id; null for a record of the projection's own topic
     * @param occurredAt when the event happened upstream; null when the record does not say
     */
    record Accepted(AssignmentUpdate update, String eventId, Instant occurredAt) implements Ingested {

        public Accepted(AssignmentUpdate update, String eventId) {
            this(update, eventId, null);
        }

        /** The same event carrying its record's trace id. */
        Accepted withTraceId(String traceId) {
            return new Accepted(update.withTraceId(traceId), eventId, occurredAt);
        }
    }

    record Rejected(Rejection rejection) implements Ingested {
    }
}
