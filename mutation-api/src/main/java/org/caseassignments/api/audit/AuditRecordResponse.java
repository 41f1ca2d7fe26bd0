package org.caseassignments.api.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One audit record as {@code GET /audit} shows it.
 *
 * @param outcome         {@code WRITTEN} or {@code REFUSED}
 * @param status          the HTTP status the request was answered with
 * @param problemCode     a refusal's problem {@code code}; null for 403 (whose body is empty) and for writes
 * @param jurisdiction    the caller's, whose ruleset decided
 * @param rulesetVersion  the ruleset version that decided; null when none ran (another jurisdiction's record)
 * @param ruleId          the rule that allowed the write (for an update, the before-image's)
 * @param afterRuleId     the rule that allowed an update's after-image, when it changed a policy-visible input
 * @param assignmentRevision the case assignment revision the write saw under its lock, with its pair
 * @param fosterHomeId    the foster home the write concerns: a placement's home after the write, or the home itself
 * @param homeOccupancy   that home's ACTIVE placements, counted in the write's transaction after the write; null
 *                        for refusals
 * @param moreRefusals    on a summary record: how many more refusals of this caller in its budget window were
 *                        not recorded one by one
 * @param assignmentTraceId the W3C trace id of the upstream event that set the assignment the write held under its
 *                        lock; null when it carried none
 */
record AuditRecordResponse(long id, Instant recordedAt, String requestId, String outcome, int status,
                           String problemCode, String callerSub, List<String> callerRoles, String jurisdiction,
                           String action, String resourceType, UUID resourceId, UUID caseId,
                           String rulesetJurisdiction, String rulesetVersion, String ruleId, String afterRuleId,
                           Long assignmentRevision, String assignedWorkerSub, String supervisorSub,
                           Long rowVersionBefore, Long rowVersionAfter, UUID fosterHomeId,
                           Integer homeOccupancy, Integer moreRefusals, String assignmentTraceId) {
}
