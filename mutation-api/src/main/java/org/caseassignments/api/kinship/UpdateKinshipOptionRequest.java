package org.caseassignments.api.kinship;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** A PATCH: absent or null fields stay as they are; a given name must not be blank. */
record UpdateKinshipOptionRequest(@Pattern(regexp = "(?s).*\\S.*", message = "must not be blank") @Size(max = 200) String relativeName,
                                  @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank") @Size(max = 100) String relationship,
                                  Boolean approved) {

    boolean changesNothing() {
        return relativeName == null && relationship == null && approved == null;
    }
}
