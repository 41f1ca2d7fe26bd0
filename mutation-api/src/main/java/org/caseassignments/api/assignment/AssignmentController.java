package org.caseassignments.api.assignment;

import java.util.UUID;

import org.caseassignments.api.http.ApiProblem;
import org.caseassignments.api.http.ProblemCode;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The projection row of a case. Any authenticated caller may read it: it is the input the rulesets
 * consume, and knowing it tells a client whether its write can be allowed, not more.
 */
@RestController
class AssignmentController {

    /** A case's assignment; {@code assignment_revision} is the upstream revision the projection has reached. */
    record AssignmentResponse(UUID caseId, String assignedWorkerSub, String supervisorSub, long assignmentRevision) {
    }

    private final CaseAssignments assignments;

    AssignmentController(CaseAssignments assignments) {
        this.assignments = assignments;
    }

    @GetMapping("/cases/{caseId}/assignment")
    AssignmentResponse get(@PathVariable UUID caseId) {
        CaseAssignment assignment = assignments.read(caseId);
        if (!assignment.known()) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "Case " + caseId + " is not known to the projection yet; "
                    + "its case.created event has not been applied");
        }
        return new AssignmentResponse(caseId, assignment.pair().assignedWorkerSub(), assignment.pair().supervisorSub(),
                assignment.revision());
    }
}
