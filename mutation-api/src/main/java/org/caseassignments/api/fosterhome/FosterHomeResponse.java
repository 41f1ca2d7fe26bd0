package org.caseassignments.api.fosterhome;

import java.time.Instant;
import java.util.UUID;

/**
 * A foster home as clients see it; its version is the ETag header, not a field.
 *
 * @param activePlacements the placements ACTIVE in the home when it was read or written: what a suspension or
 *                         revocation leaves to move (decision 22), and what capacity may not go below
 */
record FosterHomeResponse(UUID id, String name, String licenseNumber, LicenseStatus licenseStatus, String adminUnit,
                          Integer capacity, int activePlacements, Instant createdAt, Instant updatedAt) {

    static FosterHomeResponse of(FosterHome home) {
        return new FosterHomeResponse(home.id(), home.name(), home.licenseNumber(), home.licenseStatus(),
                home.adminUnit(), home.capacity(), home.activePlacements(), home.createdAt(), home.updatedAt());
    }
}
