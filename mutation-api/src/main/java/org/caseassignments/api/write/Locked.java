package org.caseassignments.api.write;

import org.caseassignments.store.hold.HeldCase;

/**
 * A row an update locked, and the hold of its case, which the update took {@code FOR SHARE} before it locked the row
 * and which the row's write takes; null for a row of no case.
 */
public record Locked<R extends Versioned>(R row, HeldCase held) {

    /** A row of no case: nothing held before it. */
    public static <R extends Versioned> Locked<R> ofNoCase(R row) {
        return new Locked<>(row, null);
    }

    /**
     * The trace id of the event that set the assignment of the row's case, as held (decision 34): the update's audit
     * record names it. Null for a row of no case, or when that event carried none.
     */
    public String assignmentTraceId() {
        return held == null ? null : held.traceId();
    }
}
