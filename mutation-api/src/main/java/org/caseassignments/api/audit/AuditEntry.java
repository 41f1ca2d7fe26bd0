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
 * @param moreRefusals on a summary record: how many more refusals of its subject its budget window held back
 * @param assignmentTraceId the upstream trace id of the event that set the assignment the request held
 *                     {@code FOR SHARE}; null when none was held or its event carried none (decision 34)
 */
record AuditEntry(Instant recordedAt, String requestId, String outcome, int status, String problemCode,
                  String callerSub, List<String> callerRoles, String jurisdiction, AuditAction action,
                  String resourceType, UUID resourceId, UUID caseId, String rulesetJurisdiction,
                  String rulesetVersion, String ruleId, String afterRuleId, Long assignmentRevision,
                  String assignedWorkerSub, String supervisorSub, Long rowVersionBefore, Long rowVersionAfter,
                  UUID fosterHomeId, Integer moreRefusals, String assignmentTraceId) {

    static final String WRITTEN = "WRITTEN";
    static final String REFUSED = "REFUSED";

    /** Any record but a summary. */
    AuditEntry(Instant recordedAt, String requestId, String outcome, int status, String problemCode,
               String callerSub, List<String> callerRoles, String jurisdiction, AuditAction action,
               String resourceType, UUID resourceId, UUID caseId, String rulesetJurisdiction,
               String rulesetVersion, String ruleId, String afterRuleId, Long assignmentRevision,
               String assignedWorkerSub, String supervisorSub, Long rowVersionBefore, Long rowVersionAfter) {
        this(recordedAt, requestId, outcome, status, problemCode, callerSub, callerRoles, jurisdiction, action,
                resourceType, resourceId, caseId, rulesetJurisdiction, rulesetVersion, ruleId, afterRuleId,
                assignmentRevision, assignedWorkerSub, supervisorSub, rowVersionBefore, rowVersionAfter, null, null, null);
    }

    /**
     * The summary of {@code more} refusals of this record's subject that were over its budget: this record's
     * caller, action and resource type (those of the last one), at {@code at}, with no resource, request or row.
     */
    AuditEntry summarising(int more, Instant at) {
        return new AuditEntry(at, null, REFUSED, status, problemCode, callerSub, callerRoles, jurisdiction, action,
                resourceType, null, null, null, null, null, null, null, null, null, null, null, null, more, null);
    }

    /** A 403 decided before any ruleset ran: a probe of another jurisdiction's record (or of one of none). */
    boolean crossJurisdiction() {
        return REFUSED.equals(outcome) && status == 403 && rulesetVersion == null;
    }

    /** One structured log line, for a refusal the queue had no room for or the writer could not store. */
    String logLine() {
        return "outcome=" + outcome + " status=" + status + " code=" + problemCode + " at=" + recordedAt
                + " request_id=" + requestId + " sub=" + callerSub + " roles=" + callerRoles
                + " jurisdiction=" + jurisdiction + " action=" + action.wireName() + " resource=" + resourceType + "/"
                + resourceId + " case=" + caseId + " ruleset=" + rulesetJurisdiction + "@" + rulesetVersion
                + " rule=" + ruleId + " row_version=" + rowVersionBefore
                + (assignmentTraceId == null ? "" : " assignment_trace_id=" + assignmentTraceId) + (moreRefusals == null ? "" : " more_refusals=" + moreRefusals);
    }
}
