package org.caseassignments.api.policy;

/**
 * The policy denied the request. Answered with 403 and an empty body: nothing tells the caller which
 * rule or which snapshot denied; the decision log does.
 */
public class PolicyDenied extends RuntimeException {

    private final transient Decision decision;

    public PolicyDenied() {
        this(null);
    }

    /** @param decision the denying decision, for the audit record of the refusal; never shown to the caller */
    public PolicyDenied(Decision decision) {
        super("denied by policy", null, false, false);
        this.decision = decision;
    }

    /** The denying decision; null when the denial did not come from one evaluation. */
    public Decision decision() {
        return decision;
    }
}
