package org.caseassignments.ingest;

import org.caseassignments.store.AssignmentUpdate;

/** The outcome of decoding and validating one input record: an update to apply, or a rejection to dead-letter. */
public sealed interface Ingested {

    record Accepted(AssignmentUpdate update, String eventId) implements Ingested {
    }

    record Rejected(Rejection rejection) implements Ingested {
    }
}
