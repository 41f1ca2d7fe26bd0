package org.caseassignments.api.assignment;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;

/**
 * 409 {@code PROJECTION_BEHIND}: the projection of a case had not reached the revision the caller asked for
 * when its wait ended. Nothing was read for it or written; retrying after {@code Retry-After} is safe.
 */
public final class ProjectionBehind extends ApiProblem {

    /** How long the answer tells a caller to wait before it tries again. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    ProjectionBehind(UUID caseId, Long currentRevision, long minRevision, Duration waited) {
        super(ProblemCode.PROJECTION_BEHIND, "The projection of case " + caseId + " is at "
                        + (currentRevision == null ? "no revision (the case is not known yet)" : "revision " + currentRevision)
                        + ", below " + minRevision + ", after waiting " + waited + "; retry later or wait longer",
                List.of(), properties(currentRevision, minRevision), RETRY_AFTER);
    }

    private ProjectionBehind(long minRevision, Duration waited) {
        super(ProblemCode.PROJECTION_BEHIND, "The projection has not reached revision " + minRevision + " after waiting "
                + waited + "; retry later or wait longer", List.of(), Map.of("min_revision", minRevision), RETRY_AFTER);
    }

    /** Not reached, for a caller who may not read the record it writes: names neither the case nor its revision. */
    static ProjectionBehind unnamed(long minRevision, Duration waited) {
        return new ProjectionBehind(minRevision, waited);
    }

    private static Map<String, Object> properties(Long currentRevision, long minRevision) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("current_revision", currentRevision);
        properties.put("min_revision", minRevision);
        return properties;
    }

    /**
     * A wait as the caller wrote it (an ISO-8601 duration such as {@code PT2S}); zero when absent.
     *
     * @throws ApiProblem 400 naming {@code name} when it is not a duration, negative or over {@code max}
     */
    public static Duration waitOf(String name, String text, Duration max) {
        if (text == null) {
            return Duration.ZERO;
        }
        Duration wait;
        try {
            wait = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalidField(name, "must be an ISO-8601 duration such as PT2S");
        }
        return bounded(name, wait, max);
    }

    /** @throws ApiProblem 400 naming {@code name} when {@code wait} is negative or over {@code max} */
    public static Duration bounded(String name, Duration wait, Duration max) {
        if (wait.isNegative() || wait.compareTo(max) > 0) {
            throw ApiProblem.invalidField(name, "must be between PT0S and " + max);
        }
        return wait;
    }
}
