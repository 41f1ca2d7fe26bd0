package org.caseassignments.api.placement;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.write.AssignmentCopy;
import org.caseassignments.api.write.InFosterHome;
import org.caseassignments.api.write.Versioned;

/**
 * A placement row, with its case's assignment and jurisdiction (read from the projection with the row; null while
 * unknown) and whether the row's copy of the assignment differs from it.
 */
record Placement(UUID id, UUID caseId, PlacementStatus status, UUID fosterHomeId, LocalDate startDate,
                 LocalDate endDate, AssignmentPair assignment, long assignmentRevision, long rowVersion,
                 Instant createdAt, Instant updatedAt, String createdBy, String jurisdiction, boolean copyDiffers) implements Versioned, AssignmentCopy, InFosterHome,
        ListPage.Row {

    /** The one builder of what the policy sees of a placement, for stored rows, after-images and creates alike. */
    static ResourceRef resource(UUID id, UUID caseId, AssignmentPair assignment, PlacementStatus status,
                                String jurisdiction) {
        return new ResourceRef(ResourceType.PLACEMENT, id, caseId, assignment.assignedWorkerSub(),
                assignment.supervisorSub(), Map.of("status", status.name()), jurisdiction);
    }

    @Override
    public ResourceRef resource() {
        return resource(id, caseId, assignment, status, jurisdiction);
    }

    /** A placement as a create in the case is authorized: PROPOSED, with the case's assignment and jurisdiction. */
    static ResourceRef proposedIn(ProjectedAssignment assignment) {
        return resource(null, assignment.caseId(), assignment.pair(), PlacementStatus.PROPOSED, assignment.jurisdiction());
    }

    Placement with(UpdatePlacementRequest change) {
        return new Placement(id, caseId, Patch.apply(change.status(), status),
                Patch.apply(change.fosterHomeId(), fosterHomeId),
                Patch.apply(change.startDate(), startDate),
                Patch.apply(change.endDate(), endDate),
                assignment, assignmentRevision, rowVersion, createdAt, updatedAt, createdBy, jurisdiction, copyDiffers);
    }
}
