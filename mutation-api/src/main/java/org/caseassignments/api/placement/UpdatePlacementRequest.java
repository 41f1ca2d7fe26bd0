package org.caseassignments.api.placement;

import java.time.LocalDate;
import java.util.UUID;

/** A PATCH: absent or null fields stay as they are. */
record UpdatePlacementRequest(PlacementStatus status, UUID fosterHomeId, LocalDate startDate, LocalDate endDate) {

    boolean changesNothing() {
        return status == null && fosterHomeId == null && startDate == null && endDate == null;
    }
}
