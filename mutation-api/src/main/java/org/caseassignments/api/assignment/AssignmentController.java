package org.caseassignments.api.assignment;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.security.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The projection row of a case, for callers of the case's jurisdiction whose ruleset lets them read
 * {@code case_assignment}. A case that is not known yet has no jurisdiction, so it is denied like any
 * other record the caller may not read.
 */
@RestController
class AssignmentController {

    /** A case's assignment; {@code assignment_revision} is the upstream revision the projection has reached. */
    record AssignmentResponse(UUID caseId, String assignedWorkerSub, String supervisorSub, long assignmentRevision) {
    }

    private final CaseAssignments assignments;
    private final PolicyEngine policy;

    AssignmentController(CaseAssignments assignments, PolicyEngine policy) {
        this.assignments = assignments;
        this.policy = policy;
    }

    @Operation(summary = "Read a case's assignment as the projection holds it")
    @GetMapping("/cases/{caseId}/assignment")
    AssignmentResponse get(Caller caller, @PathVariable UUID caseId) {
        CaseAssignment assignment = assignments.read(caseId);
        policy.require(caller, Action.READ, assignment.resource());
        return new AssignmentResponse(caseId, assignment.pair().assignedWorkerSub(), assignment.pair().supervisorSub(),
                assignment.revision());
    }
}
