package org.caseassignments.api.security;

/**
 * Whether a ruleset serves a jurisdiction now (rulesets are replaced at run time): a token naming any other is
 * refused, 401 ({@link TokenRules}). The policy answers; the token rules only ask, so this package needs none of
 * the policy's types while the policy decides over a {@link Caller} (decision 53).
 */
@FunctionalInterface
public interface ServedJurisdictions {

    boolean servesJurisdiction(String jurisdiction);
}
