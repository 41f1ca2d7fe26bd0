package org.caseassignments.api.fosterhome;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.PlainText;

/** A new foster home; its license starts PENDING. No version: If-Match carries preconditions. */
record CreateFosterHomeRequest(@NotBlank @Size(max = 200) @PlainText String name,
                               @NotBlank @Size(max = 64) @PlainText String licenseNumber,
                               @NotBlank @Size(max = 100) @PlainText String adminUnit,
                               @PositiveOrZero Integer capacity) {
}
