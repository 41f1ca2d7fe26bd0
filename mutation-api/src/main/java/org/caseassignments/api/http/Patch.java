package org.caseassignments.api.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.FieldError;
import org.caseassignments.api.problem.ProblemCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * What a PATCH body's fields mean, by its media type. A PATCH request record holds each field as an
 * {@code Optional}: null when the field is absent, empty when it is {@code null}, else its value.
 * <ul>
 *   <li>{@code application/json}: absent or {@code null} leaves the field as it is (nothing can be cleared);</li>
 *   <li>{@code application/merge-patch+json} (RFC 7396): absent leaves it, {@code null} removes it — clears a
 *       nullable field, and is refused (400 {@code VALIDATION_FAILED} naming the field) for a required one.</li>
 * </ul>
 * The record is read into a change whose fields are null (keep), empty (clear) or a value (set); {@link #apply}
 * applies one field of it to a row, field by field, as the after-image requires.
 */
public final class Patch {

    public static final String MERGE_PATCH_JSON = "application/merge-patch+json";

    private static final MediaType MERGE_PATCH = MediaType.parseMediaType(MERGE_PATCH_JSON);

    private final boolean merge;
    private final List<FieldError> errors = new ArrayList<>();

    private Patch(boolean merge) {
        this.merge = merge;
    }

    /** @param contentType the request's Content-Type (the mapping has already refused any other than the two) */
    public static Patch of(String contentType) {
        try {
            return new Patch(contentType != null && MERGE_PATCH.isCompatibleWith(MediaType.parseMediaType(contentType)));
        } catch (InvalidMediaTypeException e) {
            return new Patch(false);
        }
    }

    /** A field the row must always have: never empty in the change. */
    public <T> Optional<T> required(String field, Optional<T> value) {
        if (value == null || value.isPresent()) {
            return value;
        }
        if (merge) {
            errors.add(new FieldError(field, "is required and cannot be removed; leave it out to keep it"));
        }
        return null;
    }

    /** A field the row may lack: empty (clear) only in a merge patch. */
    public <T> Optional<T> nullable(Optional<T> value) {
        return value != null && value.isEmpty() && !merge ? null : value;
    }

    /** @return {@code change}, unless a required field was removed: 400 {@code VALIDATION_FAILED} naming each */
    public <C> C checked(C change) {
        if (!errors.isEmpty()) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, "The request has invalid fields; correct them and resend",
                    errors);
        }
        return change;
    }

    /** One field of a change applied to the row's value of that same field. */
    public static <T> T apply(Optional<T> change, T current) {
        return change == null ? current : change.orElse(null);
    }
}
