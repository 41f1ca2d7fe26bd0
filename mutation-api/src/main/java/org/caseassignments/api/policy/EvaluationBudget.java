package org.caseassignments.api.policy;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much one condition may cost (ADR-060 D2), as {@code policy.budget.*}.
 *
 * @param maxIterations comprehension iterations one evaluation of a condition may run
 *                      ({@code POLICY_BUDGET_MAX_ITERATIONS}); past it the evaluation fails and the decision denies
 * @param maxSteps      expression nodes one evaluation of a condition may evaluate ({@code POLICY_BUDGET_MAX_STEPS});
 *                      past it the evaluation is stopped and the decision denies
 * @param maxCost       the static cost bound a condition must stay under to be loaded ({@code POLICY_BUDGET_MAX_COST}):
 *                      its AST nodes, those inside a loop counted {@code maxIterations} times
 */
public record EvaluationBudget(@DefaultValue("1000") int maxIterations, @DefaultValue("10000") long maxSteps,
                               @DefaultValue("100000") long maxCost) {

    static final EvaluationBudget DEFAULT = new EvaluationBudget(1000, 10_000, 100_000);

    public EvaluationBudget {
        if (maxIterations < 1 || maxSteps < 1 || maxCost < 1) {
            throw new IllegalArgumentException("policy.budget.* (POLICY_BUDGET_MAX_ITERATIONS, POLICY_BUDGET_MAX_STEPS, "
                    + "POLICY_BUDGET_MAX_COST) must be positive, were " + maxIterations + ", " + maxSteps + ", " + maxCost);
        }
    }
}
