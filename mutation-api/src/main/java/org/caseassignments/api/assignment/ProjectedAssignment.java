package org.caseassignments.api.assignment;

import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;

/**
 * A case's assignment as the projection holds it. A case with no row, or with a placeholder
 * (revision −1), is unknown: no worker, no supervisor, no jurisdiction.
 *
 * @param revision     the upstream assignment revision; negative while unknown
 * @param jurisdiction the case's jurisdiction; null while unknown, which no caller's matches
 */
public record ProjectedAssignment(UUID caseId, AssignmentPair pair, long revision, String jurisdiction) {

    public static ProjectedAssignment unknown(UUID caseId) {
        return new ProjectedAssignment(caseId, AssignmentPair.NONE, -1, null);
    }

    /** What the policy sees of the row itself, for {@code GET /cases/{caseId}/assignment}. */
    public ResourceRef resource() {
        return new ResourceRef(ResourceType.CASE_ASSIGNMENT, caseId, caseId, pair.assignedWorkerSub(),
                pair.supervisorSub(), Map.of(), jurisdiction);
    }

    public boolean known() {
        return revision >= 0;
    }

}
