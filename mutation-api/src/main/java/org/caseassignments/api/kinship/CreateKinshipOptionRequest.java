package org.caseassignments.api.kinship;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.PlainText;

/** A new kinship option; {@code approved} defaults to false. No version: If-Match carries preconditions. */
record CreateKinshipOptionRequest(@NotBlank @Size(max = 200) @PlainText String relativeName,
                                  @NotBlank @Size(max = 100) @PlainText String relationship,
                                  Boolean approved) {
}
