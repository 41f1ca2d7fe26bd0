package org.caseassignments.api.placement;

import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * A placement as clients see it. {@code etag} is the version's ETag, the same as the header of a single
 * answer: a listed placement can be written with it, without a GET first (ADR-035).
 */
record PlacementResponse(UUID id, UUID caseId, PlacementStatus status, UUID fosterHomeId, LocalDate startDate,
                         LocalDate endDate, String assignedWorkerSub, String supervisorSub, long assignmentRevision,
                         String createdBy, Instant createdAt, Instant updatedAt, String etag) {

    static PlacementResponse of(Placement p, String etag) {
        return new PlacementResponse(p.id(), p.caseId(), p.status(), p.fosterHomeId(), p.startDate(), p.endDate(),
                p.assignment().assignedWorkerSub(), p.assignment().supervisorSub(), p.assignmentRevision(),
                p.createdBy(), p.createdAt(), p.updatedAt(), etag);
    }
}
