package org.caseassignments.api.policy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.cel.runtime.CelAttributePattern;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.UnknownContext;

/**
 * One allow rule: it applies to the listed resource types and actions, and allows when its compiled
 * condition evaluates to {@code true}.
 *
 * @param reads           the resource fields its condition reads, every one lockable for each of its resource types
 * @param overAnyResource the same condition planned to evaluate with the resource unknown (CEL's unknowns): what it
 *                        is for every resource at once, under one caller's claims
 */
record Rule(String id, Set<ResourceType> resources, Set<Action> actions, String condition,
            CelRuntime.Program program, Set<ResourceField> reads, CelRuntime.Program overAnyResource) {

    private static final List<CelAttributePattern> ANY_RESOURCE =
            List.of(CelAttributePattern.fromQualifiedIdentifier(ConditionAnalysis.RESOURCE));

    boolean appliesTo(ResourceType type, Action action) {
        return resources.contains(type) && actions.contains(action);
    }

    /**
     * Whether the condition holds for no resource at all under the claims and action of {@code activation}: evaluated
     * with the resource unknown, it is {@code false} ({@code 'caseworker' in claims.roles && …} for a caller who is no
     * caseworker: CEL's {@code false && unknown} is false). A result that depends on the resource, {@code true}, or a
     * failure says it may hold for some.
     */
    boolean holdsForNoResource(Map<String, Object> activation) {
        try {
            return Boolean.FALSE.equals(overAnyResource.advanceEvaluation(UnknownContext.create(
                    name -> name.equals(ConditionAnalysis.RESOURCE) ? Optional.empty()
                            : Optional.ofNullable(activation.get(name)), ANY_RESOURCE)));
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
