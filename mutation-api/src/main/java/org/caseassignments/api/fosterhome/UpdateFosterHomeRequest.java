package org.caseassignments.api.fosterhome;

import java.util.Optional;

import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.NotBlankWhenGiven;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.http.PlainText;

/**
 * A PATCH, read by {@link Patch}: each field null (keep), empty (clear: {@code capacity}, in a merge patch
 * only) or a value; a given text must not be blank.
 */
record UpdateFosterHomeRequest(Optional<@NotBlankWhenGiven @Size(max = 200) @PlainText String> name,
                               Optional<@PositiveOrZero Integer> capacity,
                               Optional<@NotBlankWhenGiven @Size(max = 100) @PlainText String> adminUnit,
                               Optional<@NotBlankWhenGiven @Size(max = 64) @PlainText String> licenseNumber,
                               Optional<LicenseStatus> licenseStatus) {

    /** The change this body asks for, read by its media type. */
    UpdateFosterHomeRequest as(Patch patch) {
        return patch.checked(new UpdateFosterHomeRequest(patch.required("name", name), patch.nullable(capacity),
                patch.required("admin_unit", adminUnit), patch.required("license_number", licenseNumber),
                patch.required("license_status", licenseStatus)));
    }

    boolean changesNothing() {
        return name == null && capacity == null && adminUnit == null && licenseNumber == null && licenseStatus == null;
    }
}
