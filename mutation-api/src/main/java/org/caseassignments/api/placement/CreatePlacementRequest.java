package org.caseassignments.api.placement;

import java.time.LocalDate;
import java.util.UUID;

import org.caseassignments.api.http.CalendarDate;

/**
 * Request bodies. They never carry a version: the precondition travels in If-Match only.
 *
 * @param fosterHomeId optional; must name an existing foster home
 */
record CreatePlacementRequest(UUID fosterHomeId, @CalendarDate LocalDate startDate, @CalendarDate LocalDate endDate) {
}
