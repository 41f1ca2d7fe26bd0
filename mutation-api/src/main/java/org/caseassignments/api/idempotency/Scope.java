package org.caseassignments.api.idempotency;

/**
 * What a key is unique within: the caller, the jurisdiction it acts in (its token's) and the endpoint (method and
 * path template). One subject acting in two jurisdictions has two scopes.
 */
record Scope(String callerSub, String callerJurisdiction, String endpoint, String key) {

    /** The columns, in the order of the statements' parameters. */
    Object[] columns() {
        return new Object[] {callerSub, callerJurisdiction, endpoint, key};
    }
}
