package org.caseassignments.api.placement;

import java.time.LocalDate;
import java.util.UUID;

/**
 * Request bodies. They never carry a version: the precondition travels in If-Match only.
 *
 * @param fosterHomeId optional; must name an existing foster home
 */
record CreatePlacementRequest(UUID fosterHomeId, LocalDate startDate, LocalDate endDate) {
}
