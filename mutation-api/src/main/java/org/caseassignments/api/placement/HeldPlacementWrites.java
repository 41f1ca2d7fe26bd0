package org.caseassignments.api.placement;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.assignment.HeldWrites;
import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.policy.ResourceRef;
import org.springframework.stereotype.Component;

/** Placements as the filter holding a write by {@code Min-Assignment-Revision} finds them. */
@Component
class HeldPlacementWrites implements HeldWrites {

    private final Placements placements;

    HeldPlacementWrites(Placements placements) {
        this.placements = placements;
    }

    @Override
    public CaseScopedResource resource() {
        return CaseScopedResource.PLACEMENTS;
    }

    @Override
    public Optional<ResourceRef> current(UUID id) {
        return placements.find(id).map(Placement::resource);
    }
}
