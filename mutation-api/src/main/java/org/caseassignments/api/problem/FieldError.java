package org.caseassignments.api.problem;

/**
 * One rejected field of a {@code VALIDATION_FAILED} problem.
 *
 * @param field the JSON name (snake_case), a path variable's name, or a dotted path into the body
 */
public record FieldError(String field, String message) {
}
