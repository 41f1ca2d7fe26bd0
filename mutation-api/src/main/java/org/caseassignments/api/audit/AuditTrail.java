package org.caseassignments.api.audit;

import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.audit.AuditEntry.Assignment;
import org.caseassignments.api.audit.AuditEntry.Authority;
import org.caseassignments.api.audit.AuditEntry.Outcome;
import org.caseassignments.api.audit.AuditEntry.RowVersions;
import org.caseassignments.api.audit.AuditEntry.Subject;
import org.caseassignments.api.policy.CrossJurisdictionReads;
import org.caseassignments.api.policy.Decision;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.policy.ResourceField;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.UpdateAuthorization;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.slf4j.MDC;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * What the write paths, and the policy engine of a read of another jurisdiction's record, tell the audit trail.
 * A write's record is inserted on the write's own connection, inside its transaction, after the write: it commits
 * exactly when the write does. A refusal's record is handed to the {@link RefusalWriter}, never written on the
 * refused request's thread or pool. Every refusal a ruleset decided is counted ({@code api.refusals} by reason), and
 * every 409 {@code CONCURRENT_MODIFICATION} (and every write whose case moved to another jurisdiction) by each field
 * that changed ({@code api.stale_authorizations}): a staleness refusal is "transient and retriable" only while it is
 * rare, and the field says which writer moved it.
 */
@Component
public class AuditTrail implements CrossJurisdictionReads {

    private static final Set<ProblemCode> RECORDED_REFUSALS = EnumSet.of(ProblemCode.CONCURRENT_MODIFICATION,
            ProblemCode.PRECONDITION_FAILED, ProblemCode.HOME_AT_CAPACITY, ProblemCode.HOME_NOT_LICENSED,
            ProblemCode.CAPACITY_BELOW_OCCUPANCY, ProblemCode.PLACEMENT_NEEDS_HOME, ProblemCode.FINAL_PLACEMENT_KEEPS_HOME,
            ProblemCode.HOME_OF_ANOTHER_JURISDICTION);

    private final AuditRecords records;
    private final RefusalWriter refusals;
    private final Clock clock;
    private final MeterRegistry meters;

    static final String REFUSALS_METRIC = "api.refusals";
    static final String STALE_METRIC = "api.stale_authorizations";

    AuditTrail(AuditRecords records, RefusalWriter refusals, MeterRegistry meters) {
        this.records = records;
        this.refusals = refusals;
        this.clock = Clock.systemUTC();
        this.meters = meters;
        // present from the start, so a dashboard shows 0 and a rate is defined before the first refusal
        List.of(403, 409, 412).forEach(this::refusalCounter);
        for (ResourceField field : List.of(ResourceField.ASSIGNED_WORKER_SUB, ResourceField.SUPERVISOR_SUB,
                ResourceField.JURISDICTION)) {
            staleCounter(field.path());
        }
    }

    /**
     * What a write held of its case's assignment, as its record names it: the revision, and the trace id of the event
     * that set it (decision 34), null when that event carried none. {@link #NONE} for a row of no case.
     */
    public record Held(Long revision, String traceId) {

        public static final Held NONE = new Held(null, null);
    }

    /**
     * A create, inside its transaction.
     *
     * @param requestId  the request's id, which the record names
     * @param created    the created row as the policy sees it
     * @param held       the projection row held {@code FOR SHARE}; {@link Held#NONE} when not case-scoped
     * @param fosterHome the foster home the created row names (or is); null for none
     * @param along      another statement of the create to send in the same round trip, after the record; or null
     */
    public void created(Caller caller, String requestId, Decision decision, ResourceRef created, Held held,
                        long rowVersion, UUID fosterHome, OneRoundTrip.PairedStatement along) {
        insert(AuditEntry.written(requestId, caller, AuditAction.CREATE, 201, created, Authority.of(decision, null),
                new Assignment(held.revision(), created.assignedWorkerSub(), created.supervisorSub(), held.traceId()),
                new RowVersions(null, rowVersion), fosterHome), along);
    }

    /**
     * An update or delete, inside its transaction.
     *
     * @param requestId  the request's id, which the record names
     * @param locked     the locked row as the policy sees it: the pair the staleness gate compared
     * @param held       the locked row's copy of its case's assignment revision, and the trace of the case's row
     *                   held before it; {@link Held#NONE} when not case-scoped
     * @param fosterHome the foster home the written row names (or is); null for none
     */
    public void updated(Caller caller, String requestId, AuditAction action, UpdateAuthorization authorization,
                        ResourceRef locked, Held held, long rowVersionBefore, long rowVersionAfter, UUID fosterHome) {
        insert(AuditEntry.written(requestId, caller, action, action == AuditAction.DELETE ? 204 : 200, locked,
                Authority.of(authorization.before(), authorization.afterRuleId()),
                new Assignment(held.revision(), locked.assignedWorkerSub(), locked.supervisorSub(), held.traceId()),
                new RowVersions(rowVersionBefore, rowVersionAfter), fosterHome), null);
    }

    /**
     * A write the policy denied: 403. When the record is not of the caller's jurisdiction, its record holds
     * only what the caller sent (the resource type and the path's id, or the path's case for a create):
     * it belongs to the caller's jurisdiction's trail, whose auditors must learn nothing of another's rows
     * (not the case a placement belongs to, nor its version).
     */
    public void denied(Caller caller, String requestId, AuditAction action, ResourceRef resource, PolicyDenied denial,
                       Long rowVersionBefore) {
        Decision decision = denial.decision();
        if (decision.rulesetRan()) {
            refused(caller, requestId, action, resource, Outcome.refused(403, null), Authority.of(decision, null),
                    rowVersionBefore, null);
        } else {
            offerCrossJurisdiction(caller, requestId, action, resource);
        }
    }

    /**
     * A write authorized in the caller's jurisdiction whose case moved to another before the write held it: it is
     * another jurisdiction's record now, so it is answered and recorded as any write to one (the empty 403, a record
     * of what the caller sent), never with the trace, revision or fields of the event that moved it (decision 34).
     * Counted among the stale authorizations, by jurisdiction. The moving event's trace, which the hold put in the
     * request's log context, is taken out of it first: nothing answered or logged after this may name it.
     */
    public void movedAway(Caller caller, String requestId, AuditAction action, ResourceRef sent) {
        RequestIds.logAssignmentTrace(null);
        staleCounter(ResourceField.JURISDICTION.path()).increment();
        offerCrossJurisdiction(caller, requestId, action, sent);
    }

    /**
     * A read of another jurisdiction's record (or of one of none), refused 403 before any ruleset ran: recorded in
     * the caller's jurisdiction's trail with what the caller sent, under the same budget as refused writes. The
     * policy engine tells it with no request at hand, so its request id is the one the request's log lines carry.
     */
    @Override
    public void refused(Caller caller, ResourceRef read) {
        offerCrossJurisdiction(caller, MDC.get(RequestIds.MDC_KEY), AuditAction.READ, read);
    }

    /** What the caller sent: the resource type and the path's id, or the path's case for a create. */
    private void offerCrossJurisdiction(Caller caller, String requestId, AuditAction action, ResourceRef resource) {
        UUID sentCase = action == AuditAction.CREATE ? resource.caseId() : null;
        refusals.offer(AuditEntry.crossJurisdiction(clock.instant(), requestId, caller, action,
                new Subject(resource.type().wireName(), resource.id(), sentCase)));
    }

    /**
     * A write refused after it was authorized; recorded only for {@link #RECORDED_REFUSALS}: 409
     * {@code CONCURRENT_MODIFICATION} and 412, the refusals that say someone acted on a stale view, and the
     * foster-home gate's 409s, which say a child was not placed (or a home not changed) and why.
     *
     * @param requestId         the request's id, which the record names
     * @param assignmentTraceId the trace of the case's assignment the write held before it was refused; null when it
     *                          held none, or that event carried none
     * @return whether it was recorded
     */
    public boolean refused(Caller caller, String requestId, AuditAction action, ResourceRef resource,
                           Decision authorization, ApiProblem problem, Long rowVersionBefore, String assignmentTraceId) {
        if (!RECORDED_REFUSALS.contains(problem.code())) {
            return false;
        }
        refused(caller, requestId, action, resource,
                Outcome.refused(problem.code().status().value(), problem.code().name()),
                Authority.of(authorization, null), rowVersionBefore, assignmentTraceId);
        problem.changed().forEach(field -> staleCounter(field).increment());
        return true;
    }

    private void refused(Caller caller, String requestId, AuditAction action, ResourceRef resource, Outcome outcome,
                         Authority authority, Long rowVersionBefore, String assignmentTraceId) {
        refusalCounter(outcome.status()).increment();
        refusals.offer(AuditEntry.refused(clock.instant(), requestId, caller, action, Subject.of(resource), outcome,
                authority, rowVersionBefore, assignmentTraceId));
    }

    private Counter refusalCounter(int status) {
        String reason = switch (status) {
            case 403 -> "denied";
            case 409 -> "concurrent_modification";
            case 412 -> "precondition_failed";
            default -> throw new IllegalArgumentException("not a recorded refusal: " + status);
        };
        return Counter.builder(REFUSALS_METRIC).description("writes refused after the request was read, by reason")
                .tag("reason", reason).register(meters);
    }

    private Counter staleCounter(String field) {
        return Counter.builder(STALE_METRIC)
                .description("409 CONCURRENT_MODIFICATION refusals, by each field that changed since authorization")
                .tag("field", field).register(meters);
    }

    private void insert(AuditEntry entry, OneRoundTrip.PairedStatement along) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("A write's audit record is inserted in the write's transaction; none is active");
        }
        records.insert(entry, along);
    }
}
