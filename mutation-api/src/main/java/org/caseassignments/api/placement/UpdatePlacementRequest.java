package org.caseassignments.api.placement;

import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.http.CalendarDate;
import org.caseassignments.api.http.Patch;

/**
 * A PATCH, read by {@link Patch}: each field null (keep), empty (clear: {@code foster_home_id} and the
 * dates, in a merge patch only) or a value. {@code status} is required: it can be changed, never removed.
 */
record UpdatePlacementRequest(Optional<PlacementStatus> status, Optional<UUID> fosterHomeId,
                              Optional<@CalendarDate LocalDate> startDate, Optional<@CalendarDate LocalDate> endDate) {

    /** The change this body asks for, read by its media type. */
    UpdatePlacementRequest as(Patch patch) {
        return patch.checked(new UpdatePlacementRequest(patch.required("status", status),
                patch.nullable(fosterHomeId), patch.nullable(startDate), patch.nullable(endDate)));
    }

    boolean changesNothing() {
        return status == null && fosterHomeId == null && startDate == null && endDate == null;
    }
}
