package org.caseassignments.api.fosterhome;

import java.time.Instant;
import java.util.UUID;

/**
 * A foster home as clients see it. {@code etag} is the version's ETag, the same as the header of a single answer: a
 * home listed in the roster can be written with it, without a GET first (ADR-035).
 *
 * @param activePlacements the placements ACTIVE in the home when it was read or written: what a suspension or
 *                         revocation leaves to move (decision 22), and what capacity may not go below
 */
record FosterHomeResponse(UUID id, String name, String licenseNumber, LicenseStatus licenseStatus, String adminUnit,
                          Integer capacity, int activePlacements, Instant createdAt, Instant updatedAt,
                          String etag) {

    static FosterHomeResponse of(FosterHome home, String etag) {
        return new FosterHomeResponse(home.id(), home.name(), home.licenseNumber(), home.licenseStatus(),
                home.adminUnit(), home.capacity(), home.activePlacements(), home.createdAt(), home.updatedAt(), etag);
    }
}
