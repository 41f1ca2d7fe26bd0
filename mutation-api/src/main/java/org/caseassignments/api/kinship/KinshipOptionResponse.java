package org.caseassignments.api.kinship;

import java.time.Instant;
import java.util.UUID;

/** A kinship option as clients see it; its version is the ETag header, not a field. */
record KinshipOptionResponse(UUID id, UUID caseId, String relativeName, String relationship, boolean approved,
                             String assignedWorkerSub, String supervisorSub, long assignmentRevision, String createdBy,
                             Instant createdAt, Instant updatedAt) {

    static KinshipOptionResponse of(KinshipOption k) {
        return new KinshipOptionResponse(k.id(), k.caseId(), k.relativeName(), k.relationship(), k.approved(),
                k.assignment().assignedWorkerSub(), k.assignment().supervisorSub(), k.assignmentRevision(),
                k.createdBy(), k.createdAt(), k.updatedAt());
    }
}
