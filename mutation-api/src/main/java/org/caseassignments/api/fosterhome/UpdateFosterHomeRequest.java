package org.caseassignments.api.fosterhome;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/** A PATCH: absent or null fields stay as they are; a given text must not be blank. */
record UpdateFosterHomeRequest(@Pattern(regexp = "(?s).*\\S.*", message = "must not be blank") @Size(max = 200) String name,
                               @PositiveOrZero Integer capacity,
                               @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank") @Size(max = 100) String adminUnit,
                               @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank") @Size(max = 64) String licenseNumber,
                               LicenseStatus licenseStatus) {

    boolean changesNothing() {
        return name == null && capacity == null && adminUnit == null && licenseNumber == null && licenseStatus == null;
    }
}
