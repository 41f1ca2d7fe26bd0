package org.caseassignments.api.assignment;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.policy.ResourceRef;

/**
 * A case-scoped resource whose writes {@code Min-Assignment-Revision} can hold (decision 39): its records as the
 * policy sees them, so the holding filter finds the record's case and tells a 409 whether it may name it.
 * Implemented by each such resource's package, with its one builder of what the policy sees: one for each
 * {@link CaseScopedResource}.
 */
public interface HeldWrites {

    /** The resource whose writes these are. */
    CaseScopedResource resource();

    /**
     * The record as it is, as the policy sees it (an update's before-image); empty when there is no such live record.
     */
    Optional<ResourceRef> current(UUID id);
}
