package org.caseassignments.api.policy;

import java.util.Set;

/**
 * An allowed update: the decision on the row as it is, the decision on the row as it would be (null when
 * the request changes no policy-visible input, so only the first was made), both by one ruleset version,
 * and the resource fields that ruleset's update rules for the type read.
 */
public record UpdateAuthorization(Decision before, Decision after, Set<ResourceField> reads) {

    /** The id of the rule that allowed the after-image; null when it was not evaluated. */
    public String afterRuleId() {
        return after == null ? null : after.ruleId();
    }
}
