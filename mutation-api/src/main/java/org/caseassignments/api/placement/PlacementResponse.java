package org.caseassignments.api.placement;

import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/** A placement as clients see it; its version is the ETag header, not a field. */
record PlacementResponse(UUID id, UUID caseId, PlacementStatus status, UUID fosterHomeId, LocalDate startDate,
                         LocalDate endDate, String assignedWorkerSub, String supervisorSub, long assignmentRevision,
                         String createdBy, Instant createdAt, Instant updatedAt) {

    static PlacementResponse of(Placement p) {
        return new PlacementResponse(p.id(), p.caseId(), p.status(), p.fosterHomeId(), p.startDate(), p.endDate(),
                p.assignment().assignedWorkerSub(), p.assignment().supervisorSub(), p.assignmentRevision(),
                p.createdBy(), p.createdAt(), p.updatedAt());
    }
}
