package org.caseassignments.api.write;

/**
 * A row an update locked, and the trace id of the event that set the assignment of its case, which the update held
 * {@code FOR SHARE} before it locked the row (decision 34): the update's audit record names it. Null for a row of no
 * case, or when that event carried none.
 */
public record Locked<R extends Versioned>(R row, String assignmentTraceId) {

    /** A row of no case: nothing held before it. */
    public static <R extends Versioned> Locked<R> ofNoCase(R row) {
        return new Locked<>(row, null);
    }
}
