package org.caseassignments.api.kinship;

import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.NotBlankWhenGiven;

/** A PATCH: absent or null fields stay as they are; a given name must not be blank. */
record UpdateKinshipOptionRequest(@NotBlankWhenGiven @Size(max = 200) String relativeName,
                                  @NotBlankWhenGiven @Size(max = 100) String relationship,
                                  Boolean approved) {

    boolean changesNothing() {
        return relativeName == null && relationship == null && approved == null;
    }
}
