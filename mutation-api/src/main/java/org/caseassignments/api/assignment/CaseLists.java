package org.caseassignments.api.assignment;

import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;

/**
 * Whether a caller may list a case's records at all: only a case of the caller's jurisdiction has lists for it. A
 * case of another jurisdiction, or one the projection does not know yet, answers as a single read of one of its
 * records does — the empty 403 of a record of another jurisdiction — never a page that says how many rows there are
 * or where they start (decision 40).
 */
@Component
public class CaseLists {

    private final CaseAssignments assignments;
    private final PolicyEngine policy;

    CaseLists(CaseAssignments assignments, PolicyEngine policy) {
        this.assignments = assignments;
        this.policy = policy;
    }

    /**
     * @param asListed a record of the list as the policy sees it, on the case's assignment: what a single read of
     *                 one of them is decided on, so the refusal is that read's
     * @throws org.caseassignments.api.policy.PolicyDenied when the case is not of the caller's jurisdiction
     */
    public void requireListable(Caller caller, UUID caseId, Function<ProjectedAssignment, ResourceRef> asListed) {
        ProjectedAssignment assignment = assignments.read(caseId);
        if (!Objects.equals(assignment.jurisdiction(), caller.jurisdiction())) {
            policy.require(caller, Action.READ, asListed.apply(assignment)); // denied before any ruleset runs
        }
    }
}
