package org.caseassignments.api.kinship;

import java.time.Instant;
import java.util.UUID;

/**
 * A kinship option as clients see it. {@code etag} is the version's ETag, the same as the header of a single
 * answer: a listed option can be written with it, without a GET first (ADR-035).
 */
record KinshipOptionResponse(UUID id, UUID caseId, String relativeName, String relationship, boolean approved,
                             String assignedWorkerSub, String supervisorSub, long assignmentRevision, String createdBy,
                             Instant createdAt, Instant updatedAt, String etag) {

    static KinshipOptionResponse of(KinshipOption k, String etag) {
        return new KinshipOptionResponse(k.id(), k.caseId(), k.relativeName(), k.relationship(), k.approved(),
                k.assignment().assignedWorkerSub(), k.assignment().supervisorSub(), k.assignmentRevision(),
                k.createdBy(), k.createdAt(), k.updatedAt(), etag);
    }
}
