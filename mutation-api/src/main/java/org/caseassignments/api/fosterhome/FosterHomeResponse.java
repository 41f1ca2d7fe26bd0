package org.caseassignments.api.fosterhome;

import java.time.Instant;
import java.util.UUID;

/** A foster home as clients see it; its version is the ETag header, not a field. */
record FosterHomeResponse(UUID id, String name, String licenseNumber, LicenseStatus licenseStatus, String adminUnit,
                          Integer capacity, Instant createdAt, Instant updatedAt) {

    static FosterHomeResponse of(FosterHome home) {
        return new FosterHomeResponse(home.id(), home.name(), home.licenseNumber(), home.licenseStatus(),
                home.adminUnit(), home.capacity(), home.createdAt(), home.updatedAt());
    }
}
