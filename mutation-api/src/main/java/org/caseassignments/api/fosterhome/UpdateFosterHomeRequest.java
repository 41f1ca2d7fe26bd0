package org.caseassignments.api.fosterhome;

import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.NotBlankWhenGiven;

/** A PATCH: absent or null fields stay as they are; a given text must not be blank. */
record UpdateFosterHomeRequest(@NotBlankWhenGiven @Size(max = 200) String name,
                               @PositiveOrZero Integer capacity,
                               @NotBlankWhenGiven @Size(max = 100) String adminUnit,
                               @NotBlankWhenGiven @Size(max = 64) String licenseNumber,
                               LicenseStatus licenseStatus) {

    boolean changesNothing() {
        return name == null && capacity == null && adminUnit == null && licenseNumber == null && licenseStatus == null;
    }
}
