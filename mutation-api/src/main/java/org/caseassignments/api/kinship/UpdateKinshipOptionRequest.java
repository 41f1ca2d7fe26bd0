package org.caseassignments.api.kinship;

import java.util.Optional;

import jakarta.validation.constraints.Size;
import org.caseassignments.api.http.NotBlankWhenGiven;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.http.PlainText;

/** A PATCH, read by {@link Patch}: each field null (keep) or a value; every field is required, so none can be removed. */
record UpdateKinshipOptionRequest(Optional<@NotBlankWhenGiven @Size(max = 200) @PlainText String> relativeName,
                                  Optional<@NotBlankWhenGiven @Size(max = 100) @PlainText String> relationship,
                                  Optional<Boolean> approved) {

    /** The change this body asks for, read by its media type. */
    UpdateKinshipOptionRequest as(Patch patch) {
        return patch.checked(new UpdateKinshipOptionRequest(patch.required("relative_name", relativeName),
                patch.required("relationship", relationship), patch.required("approved", approved)));
    }

    boolean changesNothing() {
        return relativeName == null && relationship == null && approved == null;
    }
}
