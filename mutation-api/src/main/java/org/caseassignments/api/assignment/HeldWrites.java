package org.caseassignments.api.assignment;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;

/**
 * A case-scoped resource whose writes {@code Min-Assignment-Revision} can hold, as the holding filter authorizes a
 * write before it waits (decision 39): with what the policy decides the write on that no request body changes.
 * Implemented by each such resource's package, with its one builder of what the policy sees.
 */
public interface HeldWrites {

    /** The collection's path segment: {@code /cases/{caseId}/<collection>} creates, {@code /<collection>/{id}} writes. */
    String collection();

    /**
     * What a create in the case is authorized against before its body is read: the resource the create path builds
     * from the case's projection, with the attributes a body may set at their least (a kinship option unapproved).
     */
    ResourceRef createdIn(ProjectedAssignment assignment);

    /**
     * What an update or delete of the record is first authorized against: the record as it is (the before-image,
     * whose denial ends every update); empty when there is no such live record.
     */
    Optional<ResourceRef> current(UUID id);
}
