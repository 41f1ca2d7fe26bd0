package org.caseassignments.api.policy;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.cel.common.CelErrorCode;
import dev.cel.common.CelException;
import dev.cel.common.exceptions.CelIterationLimitExceededException;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;

/**
 * A compiled ruleset. Allows iff some applicable rule's condition is {@code true}; an evaluation
 * error in any applicable rule, a non-boolean result, or a condition over its budget denies the whole
 * decision (fail closed, independent of rule order).
 */
record Ruleset(String jurisdiction, String version, List<Rule> rules, String origin, EvaluationBudget budget) {

    /** The reason of a denial no rule failed in: every rule evaluated, none allowed. */
    static final String NO_RULE_ALLOWS = "no rule allows";

    Decision evaluate(ResourceType type, Action action, Map<String, Object> activation) {
        String allowedBy = null;
        for (Rule rule : rules) {
            if (!rule.appliesTo(type, action)) {
                continue;
            }
            Object result;
            try {
                result = rule.program().trace(activation, new StepBudget(budget.maxSteps()));
            } catch (CelEvaluationException | StepBudget.Exceeded e) {
                if (overBudget(e)) {
                    return Decision.overBudget(this, "rule " + rule.id() + " exceeded its evaluation budget: "
                            + e.getMessage());
                }
                return Decision.deny(this, "rule " + rule.id() + " failed to evaluate: " + e.getMessage());
            }
            if (!(result instanceof Boolean allowed)) {
                return Decision.deny(this, "rule " + rule.id() + " did not evaluate to a bool: " + result);
            }
            if (allowed && allowedBy == null) {
                allowedBy = rule.id();
            }
        }
        return allowedBy == null ? Decision.deny(this, NO_RULE_ALLOWS) : Decision.allow(this, allowedBy);
    }

    /**
     * Whether no resource of {@code type} can be allowed {@code action} under the claims of {@code activation}: every
     * rule for them holds for no resource ({@link Rule#holdsForNoResource}). When any may hold for some, each resource
     * is decided by {@link #evaluate}, which reports a failing rule as it does today.
     */
    boolean allowsNone(ResourceType type, Action action, Map<String, Object> activation) {
        return rules.stream().filter(rule -> rule.appliesTo(type, action))
                .allMatch(rule -> rule.holdsForNoResource(activation));
    }

    /**
     * The resource fields the rules for {@code type} and {@code action} read, all of them, not only the
     * allowing rule's: the inputs a decision of this ruleset consumed, which the update path compares
     * under the row lock.
     */
    Set<ResourceField> reads(ResourceType type, Action action) {
        Set<ResourceField> reads = new LinkedHashSet<>();
        for (Rule rule : rules) {
            if (rule.appliesTo(type, action)) {
                reads.addAll(rule.reads());
            }
        }
        return Collections.unmodifiableSet(reads);
    }

    /** Type → the paths its update rules read, for the log line that says what serves. */
    Map<String, List<String>> updateReads() {
        Map<String, List<String>> all = new TreeMap<>();
        for (ResourceType type : ResourceType.values()) {
            all.put(type.wireName(), reads(type, Action.UPDATE).stream().map(ResourceField::path).sorted().toList());
        }
        return all;
    }

    private static boolean overBudget(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StepBudget.Exceeded || cause instanceof CelIterationLimitExceededException
                    || cause instanceof CelException cel && cel.getErrorCode() == CelErrorCode.ITERATION_BUDGET_EXCEEDED) {
                return true;
            }
        }
        return false;
    }

    /** Counts the expression nodes one evaluation evaluates and stops it past the limit. */
    private static final class StepBudget implements CelEvaluationListener {

        static final class Exceeded extends RuntimeException {
            Exceeded(long limit) {
                super("more than " + limit + " evaluation steps (policy.budget.max-steps)", null, false, false);
            }
        }

        private final long limit;
        private long steps;

        StepBudget(long limit) {
            this.limit = limit;
        }

        @Override
        public void callback(dev.cel.common.ast.CelExpr expr, Object result) {
            if (++steps > limit) {
                throw new Exceeded(limit);
            }
        }
    }
}
