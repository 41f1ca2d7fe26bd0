package org.caseassignments.api.fosterhome;

import java.util.UUID;

import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.FosterHomeReads;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;

/** The one decision of whether a caller reads a foster home: its single read's, and its lists'. */
@Component
class ReadableHomes implements FosterHomeReads {

    private final FosterHomes homes;
    private final PolicyEngine policy;

    ReadableHomes(FosterHomes homes, PolicyEngine policy) {
        this.homes = homes;
        this.policy = policy;
    }

    /** The home, when the caller may read it; 404 when there is none, the policy's refusal otherwise. */
    FosterHome read(Caller caller, UUID id) {
        FosterHome home = homes.find(id).orElseThrow(() -> ApiProblem.notFound("Foster home", id));
        policy.require(caller, Action.READ, home.resource());
        return home;
    }

    @Override
    public void requireReadable(Caller caller, UUID homeId) {
        read(caller, homeId);
    }
}
