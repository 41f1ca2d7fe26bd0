package org.caseassignments.api.policy;

/**
 * The policy denied the request. Answered with 403 and an empty body: nothing tells the caller which
 * rule or which snapshot denied; the decision log does.
 */
public class PolicyDenied extends RuntimeException {

    public PolicyDenied() {
        super("denied by policy", null, false, false);
    }
}
