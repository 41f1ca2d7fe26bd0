package org.caseassignments.api.policy;

import org.caseassignments.api.security.Caller;

/**
 * Told of every read the engine refuses before a ruleset ran: a read of another jurisdiction's record, or of one of
 * no known jurisdiction. The audit trail records it as a refusal of the caller's jurisdiction (decision 41).
 */
@FunctionalInterface
public interface CrossJurisdictionReads {

    CrossJurisdictionReads NONE = (caller, resource) -> {
    };

    /** Never blocks and never fails the request: the caller gets its 403 whatever happens here. */
    void refused(Caller caller, ResourceRef resource);
}
