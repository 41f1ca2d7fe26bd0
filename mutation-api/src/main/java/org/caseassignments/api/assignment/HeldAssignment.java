package org.caseassignments.api.assignment;

/**
 * What a write holds {@code FOR SHARE} of its case until it commits: the projection row as it stands under the hold,
 * and the W3C trace id of the upstream event that set it (decision 34), which the write's audit record names; null
 * when that event carried none.
 */
public record HeldAssignment(ProjectedAssignment assignment, String traceId) {
}
