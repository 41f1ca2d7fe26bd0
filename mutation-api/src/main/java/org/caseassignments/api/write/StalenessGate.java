package org.caseassignments.api.write;

import java.util.Objects;

import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.http.ApiProblem;
import org.caseassignments.api.http.ProblemCode;

/**
 * The comparison that replaces re-running the policy under a row lock: the locked row's assignment
 * pair must be the pair the decision consumed. Any difference, on either half, refuses.
 */
public final class StalenessGate {

    private StalenessGate() {
    }

    /** @throws ApiProblem 409 {@code CONCURRENT_MODIFICATION} when the pairs differ */
    public static void refuseIfAssignmentChanged(AssignmentPair authorized, AssignmentPair locked, String what) {
        if (!Objects.equals(authorized, locked)) {
            throw new ApiProblem(ProblemCode.CONCURRENT_MODIFICATION,
                    "The assignment of " + what + " changed since authorization — re-read and retry");
        }
    }

    /** @throws ApiProblem 409 {@code CONCURRENT_MODIFICATION} when the record's jurisdiction moved */
    public static void refuseIfJurisdictionChanged(String authorized, String locked, String what) {
        if (!Objects.equals(authorized, locked)) {
            throw new ApiProblem(ProblemCode.CONCURRENT_MODIFICATION,
                    "The jurisdiction of " + what + " changed since authorization — re-read and retry");
        }
    }
}
