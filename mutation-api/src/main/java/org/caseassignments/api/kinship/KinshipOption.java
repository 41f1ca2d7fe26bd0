package org.caseassignments.api.kinship;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.write.AssignmentCopy;
import org.caseassignments.api.write.Versioned;

/** A live (not soft-deleted) kinship option row, with its case's assignment from the projection (decision 29). */
record KinshipOption(UUID id, UUID caseId, String relativeName, String relationship, boolean approved,
                     AssignmentPair assignment, long assignmentRevision, long rowVersion, Instant createdAt,
                     Instant updatedAt, String createdBy, String jurisdiction, boolean copyDiffers) implements Versioned, AssignmentCopy,
        ListPage.Row {

    /** The one builder of what the policy sees of a kinship option; its jurisdiction is its case's. */
    static ResourceRef resource(UUID id, UUID caseId, AssignmentPair assignment, boolean approved, String jurisdiction) {
        return new ResourceRef(ResourceType.KINSHIP_OPTION, id, caseId, assignment.assignedWorkerSub(),
                assignment.supervisorSub(), Map.of("approved", approved), jurisdiction);
    }

    @Override
    public ResourceRef resource() {
        return resource(id, caseId, assignment, approved, jurisdiction);
    }

    /** A kinship option as a create in the case is authorized, with the case's assignment and jurisdiction. */
    static ResourceRef createdIn(ProjectedAssignment assignment, boolean approved) {
        return resource(null, assignment.caseId(), assignment.pair(), approved, assignment.jurisdiction());
    }

    KinshipOption with(UpdateKinshipOptionRequest change) {
        return new KinshipOption(id, caseId, Patch.apply(change.relativeName(), relativeName),
                Patch.apply(change.relationship(), relationship),
                Patch.apply(change.approved(), approved),
                assignment, assignmentRevision, rowVersion, createdAt, updatedAt, createdBy, jurisdiction, copyDiffers);
    }
}
