package org.caseassignments.api.audit;

import java.time.Instant;
import java.util.UUID;

import org.caseassignments.api.policy.Decision;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.security.Caller;

/**
 * One audit record as written: the request, the caller, the resource, the authority (ruleset and
 * rules) and the assignment and row versions the write saw under its lock. No request body and no
 * personal data beyond the caller's and the assignment's subjects. Built by one factory per outcome, each naming
 * only what that outcome records: {@link #written}, {@link #refused}, {@link #crossJurisdiction} and
 * {@link #summarising}.
 *
 * @param recordedAt   null for a write: the database's transaction time is used
 * @param caller       its subject, roles and jurisdiction are recorded (the jurisdiction is the trail's)
 * @param fosterHomeId the home the write concerns (a placement's after the write, or the home itself); for a
 *                     written record, the insert counts that home's ACTIVE placements as it stands then
 * @param moreRefusals on a summary record: how many more refusals of its subject its budget window held back
 */
record AuditEntry(Instant recordedAt, String requestId, Outcome outcome, Caller caller, AuditAction action,
                  Subject subject, Authority authority, Assignment assignment, RowVersions rowVersions,
                  UUID fosterHomeId, Integer moreRefusals) {

    static final String WRITTEN = "WRITTEN";
    static final String REFUSED = "REFUSED";

    /** {@link #WRITTEN} or {@link #REFUSED}, the HTTP status answered and a refusal's problem {@code code}. */
    record Outcome(String name, int status, String problemCode) {

        static Outcome written(int status) {
            return new Outcome(WRITTEN, status, null);
        }

        /** @param problemCode null for a 403, whose body is empty */
        static Outcome refused(int status, String problemCode) {
            return new Outcome(REFUSED, status, problemCode);
        }
    }

    /**
     * What the record is about.
     *
     * @param resourceId null on a refused create
     * @param caseId     null for a resource of no case, and where the record must not name it
     */
    record Subject(String resourceType, UUID resourceId, UUID caseId) {

        static Subject of(ResourceRef resource) {
            return new Subject(resource.type().wireName(), resource.id(), resource.caseId());
        }
    }

    /**
     * The ruleset that decided and its rule; {@code afterRuleId}, the rule that allowed an update's after-image when
     * the update changed a policy-visible input. {@link #NONE} when no ruleset ran.
     */
    record Authority(String rulesetJurisdiction, String rulesetVersion, String ruleId, String afterRuleId) {

        static final Authority NONE = new Authority(null, null, null, null);

        /** @param decision null when none is known: {@link #NONE} */
        static Authority of(Decision decision, String afterRuleId) {
            return decision == null ? NONE
                    : new Authority(decision.jurisdiction(), decision.rulesetVersion(), decision.ruleId(), afterRuleId);
        }
    }

    /**
     * What the write saw of its case's assignment under its hold: the revision and the pair, and the trace id of the
     * event that set it (decision 34). {@link #NONE} where nothing was held.
     */
    record Assignment(Long revision, String assignedWorkerSub, String supervisorSub, String traceId) {

        static final Assignment NONE = new Assignment(null, null, null, null);

        /** A refusal names only the trace of what the request held, if anything. */
        static Assignment traceOnly(String traceId) {
            return new Assignment(null, null, null, traceId);
        }
    }

    /**
     * The row's version before the request (the locked one, or the one a refused request was authorized against)
     * and the one it wrote; {@link #NONE} when neither is recorded.
     */
    record RowVersions(Long before, Long after) {

        static final RowVersions NONE = new RowVersions(null, null);
    }

    /** A write, recorded in its transaction at the transaction's time. */
    static AuditEntry written(String requestId, Caller caller, AuditAction action, int status, ResourceRef resource,
                              Authority authority, Assignment assignment, RowVersions rowVersions, UUID fosterHomeId) {
        return new AuditEntry(null, requestId, Outcome.written(status), caller, action, Subject.of(resource),
                authority, assignment, rowVersions, fosterHomeId, null);
    }

    /**
     * A write refused after a ruleset ran (a 403 it decided, or a 409 or 412 after it allowed): the trace of what the
     * request held, and the row version it was authorized against, if any.
     */
    static AuditEntry refused(Instant at, String requestId, Caller caller, AuditAction action, Subject subject,
                              Outcome outcome, Authority authority, Long rowVersionBefore, String assignmentTraceId) {
        return new AuditEntry(at, requestId, outcome, caller, action, subject, authority,
                Assignment.traceOnly(assignmentTraceId), new RowVersions(rowVersionBefore, null), null, null);
    }

    /**
     * A 403 decided before any ruleset ran (another jurisdiction's record, or one of none): only what the caller sent.
     */
    static AuditEntry crossJurisdiction(Instant at, String requestId, Caller caller, AuditAction action, Subject sent) {
        return new AuditEntry(at, requestId, Outcome.refused(403, null), caller, action, sent, Authority.NONE,
                Assignment.NONE, RowVersions.NONE, null, null);
    }

    /**
     * The summary of {@code more} refusals of this record's subject that were over its budget: this record's
     * caller, action and resource type (those of the last one), at {@code at}, with no resource, request or row.
     */
    AuditEntry summarising(int more, Instant at) {
        return new AuditEntry(at, null, outcome, caller, action, new Subject(subject.resourceType(), null, null),
                Authority.NONE, Assignment.NONE, RowVersions.NONE, null, more);
    }

    /** A 403 decided before any ruleset ran: a probe of another jurisdiction's record (or of one of none). */
    boolean crossJurisdiction() {
        return REFUSED.equals(outcome.name()) && outcome.status() == 403 && authority.rulesetVersion() == null;
    }

    /** One structured log line, for a refusal the queue had no room for or the writer could not store. */
    String logLine() {
        return "outcome=" + outcome.name() + " status=" + outcome.status() + " code=" + outcome.problemCode()
                + " at=" + recordedAt + " request_id=" + requestId + " sub=" + caller.sub() + " roles=" + caller.roles()
                + " jurisdiction=" + caller.jurisdiction() + " action=" + action.wireName()
                + " resource=" + subject.resourceType() + "/" + subject.resourceId() + " case=" + subject.caseId()
                + " ruleset=" + authority.rulesetJurisdiction() + "@" + authority.rulesetVersion()
                + " rule=" + authority.ruleId() + " row_version=" + rowVersions.before()
                + (assignment.traceId() == null ? "" : " assignment_trace_id=" + assignment.traceId())
                + (moreRefusals == null ? "" : " more_refusals=" + moreRefusals);
    }
}
