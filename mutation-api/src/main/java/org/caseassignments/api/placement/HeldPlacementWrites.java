package org.caseassignments.api.placement;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.assignment.HeldWrites;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.policy.ResourceRef;
import org.springframework.stereotype.Component;

/** What a placement's create or update held by {@code Min-Assignment-Revision} is authorized against first. */
@Component
class HeldPlacementWrites implements HeldWrites {

    private final Placements placements;

    HeldPlacementWrites(Placements placements) {
        this.placements = placements;
    }

    @Override
    public String collection() {
        return "placements";
    }

    @Override
    public ResourceRef createdIn(ProjectedAssignment assignment) {
        return Placement.proposedIn(assignment);
    }

    @Override
    public Optional<ResourceRef> current(UUID id) {
        return placements.find(id).map(Placement::resource);
    }
}
