package org.caseassignments.api.policy;

/** A ruleset document that cannot be served: unreadable, malformed, or a condition that does not compile. */
class InvalidRuleset extends Exception {

    InvalidRuleset(String message) {
        super(message);
    }
}
