package org.caseassignments.ingest;

import org.caseassignments.store.AssignmentUpdate;

/** The outcome of decoding and validating one record: an update to apply, or a rejection to dead-letter. */
public sealed interface Ingested {

    /** @param eventId the upstream event's id; null for a record of the projection's own topic */
    record Accepted(AssignmentUpdate update, String eventId) implements Ingested {
    }

    record Rejected(Rejection rejection) implements Ingested {
    }
}
