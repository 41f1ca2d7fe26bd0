package org.caseassignments.projector.stream;

import org.caseassignments.store.AssignmentUpdate;

/**
 * What the decoding processor forwards down the topology: an update to publish, or the original bytes to
 * dead-letter. Whether a record was accepted is ingest's {@code Ingested}; this is only where it goes next.
 */
sealed interface Forwarded {

    record Update(AssignmentUpdate update) implements Forwarded {
    }

    /**
     * The record as it arrived (its value cut, and marked so, only if it no longer fits with the dead-letter
     * headers); the {@code dlq.*} headers travel on the record itself.
     */
    record DeadLetter(byte[] key, byte[] value) implements Forwarded {
    }
}
