package org.caseassignments.api.kinship;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.write.Versioned;

/** A live (not soft-deleted) kinship option row, with the copy of its case's assignment it carries. */
record KinshipOption(UUID id, UUID caseId, String relativeName, String relationship, boolean approved,
                     AssignmentPair assignment, long assignmentRevision, long rowVersion, Instant createdAt,
                     Instant updatedAt, String createdBy) implements Versioned {

    /** The one builder of what the policy sees of a kinship option. */
    static ResourceRef resource(UUID id, UUID caseId, AssignmentPair assignment, boolean approved) {
        return new ResourceRef(ResourceType.KINSHIP_OPTION, id, caseId, assignment.assignedWorkerSub(),
                assignment.supervisorSub(), Map.of("approved", approved));
    }

    ResourceRef resource() {
        return resource(id, caseId, assignment, approved);
    }

    KinshipOption with(UpdateKinshipOptionRequest change) {
        return new KinshipOption(id, caseId, change.relativeName() == null ? relativeName : change.relativeName(),
                change.relationship() == null ? relationship : change.relationship(),
                change.approved() == null ? approved : change.approved(),
                assignment, assignmentRevision, rowVersion, createdAt, updatedAt, createdBy);
    }
}
