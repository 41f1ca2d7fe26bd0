package org.caseassignments.projector.stream;

import org.caseassignments.store.AssignmentUpdate;

/** A decoded input record on its way through the topology: an update, or the original bytes to dead-letter. */
sealed interface Decoded {

    record Update(AssignmentUpdate update) implements Decoded {
    }

    /**
     * The record as it arrived (its value cut, and marked so, only if it no longer fits with the dead-letter
     * headers); the {@code dlq.*} headers travel on the record itself.
     */
    record DeadLetter(byte[] key, byte[] value) implements Decoded {
    }
}
