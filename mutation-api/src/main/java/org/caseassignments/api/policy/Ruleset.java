package org.caseassignments.api.policy;

import java.util.List;
import java.util.Map;

import dev.cel.runtime.CelEvaluationException;

/**
 * A compiled ruleset. Allows iff some applicable rule's condition is {@code true}; an evaluation
 * error in any applicable rule, or a non-boolean result, denies the whole decision (fail closed,
 * independent of rule order).
 */
record Ruleset(String jurisdiction, String version, List<Rule> rules, String origin) {

    Decision evaluate(ResourceType type, Action action, Map<String, Object> activation) {
        String allowedBy = null;
        for (Rule rule : rules) {
            if (!rule.appliesTo(type, action)) {
                continue;
            }
            Object result;
            try {
                result = rule.program().eval(activation);
            } catch (CelEvaluationException e) {
                return Decision.deny(this, "rule " + rule.id() + " failed to evaluate: " + e.getMessage());
            }
            if (!(result instanceof Boolean allowed)) {
                return Decision.deny(this, "rule " + rule.id() + " did not evaluate to a bool: " + result);
            }
            if (allowed && allowedBy == null) {
                allowedBy = rule.id();
            }
        }
        return allowedBy == null ? Decision.deny(this, "no rule allows") : Decision.allow(this, allowedBy);
    }
}
