package org.caseassignments.api.assignment;

import org.caseassignments.store.hold.HeldCase;

/**
 * What a write holds {@code FOR SHARE} of its case until it commits: the projection row as it stands under the hold,
 * and the hold ({@link HeldCase}), which the write's insert into the case takes, with the W3C trace id of the upstream
 * event that set it (decision 34).
 */
public record HeldAssignment(ProjectedAssignment assignment, HeldCase hold) {

    /** The trace id of the event that set the row held, which the write's audit record names; null when it carried none. */
    public String traceId() {
        return hold.traceId();
    }
}
