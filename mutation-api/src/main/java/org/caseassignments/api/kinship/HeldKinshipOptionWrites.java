package org.caseassignments.api.kinship;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.assignment.HeldWrites;
import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.policy.ResourceRef;
import org.springframework.stereotype.Component;

/**
 * Kinship options as the filter holding a write by {@code Min-Assignment-Revision} finds them: a soft-deleted option
 * is no record, so its write is not held and the handler answers 404.
 */
@Component
class HeldKinshipOptionWrites implements HeldWrites {

    private final KinshipOptions options;

    HeldKinshipOptionWrites(KinshipOptions options) {
        this.options = options;
    }

    @Override
    public CaseScopedResource resource() {
        return CaseScopedResource.KINSHIP_OPTIONS;
    }

    @Override
    public Optional<ResourceRef> current(UUID id) {
        return options.find(id).map(KinshipOption::resource);
    }
}
