package org.caseassignments.projector.stream;

import org.caseassignments.store.AssignmentUpdate;

/** A decoded input record on its way through the topology: an update, or the original bytes to dead-letter. */
sealed interface Decoded {

    record Update(AssignmentUpdate update) implements Decoded {
    }

    /** The record exactly as it arrived; the {@code dlq.*} headers travel on the record itself. */
    record DeadLetter(byte[] key, byte[] value) implements Decoded {
    }
}
