package org.caseassignments.api.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One audit record as written: the request, the caller, the resource, the authority (ruleset and
 * rules) and the assignment and row versions the write saw under its lock. No request body and no
 * personal data beyond the caller's and the assignment's subjects.
 *
 * @param recordedAt   null for a write: the database's transaction time is used
 * @param fosterHomeId the home the write concerns (a placement's after the write, or the home itself); for a
 *                     written record, the insert counts that home's ACTIVE placements as it stands then
 */
record AuditEntry(Instant recordedAt, String requestId, String outcome, int status, String problemCode,
                  String callerSub, List<String> callerRoles, String jurisdiction, AuditAction action,
                  String resourceType, UUID resourceId, UUID caseId, String rulesetJurisdiction,
                  String rulesetVersion, String ruleId, String afterRuleId, Long assignmentRevision,
                  String assignedWorkerSub, String supervisorSub, Long rowVersionBefore, Long rowVersionAfter,
                  UUID fosterHomeId) {

    static final String WRITTEN = "WRITTEN";
    static final String REFUSED = "REFUSED";

    /** One structured log line, for a refusal the queue had no room for or the writer could not store. */
    String logLine() {
        return "outcome=" + outcome + " status=" + status + " code=" + problemCode + " at=" + recordedAt
                + " request_id=" + requestId + " sub=" + callerSub + " roles=" + callerRoles
                + " jurisdiction=" + jurisdiction + " action=" + action.wireName() + " resource=" + resourceType + "/"
                + resourceId + " case=" + caseId + " ruleset=" + rulesetJurisdiction + "@" + rulesetVersion
                + " rule=" + ruleId + " row_version=" + rowVersionBefore;
    }
}
