package org.caseassignments.api.write;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.caseassignments.api.assignment.HeldAssignment;
import org.caseassignments.api.assignment.ProjectedAssignment;
import org.caseassignments.api.audit.AuditAction;
import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.assignment.CaseAssignments;
import org.caseassignments.api.idempotency.IdempotentCreate;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.Decision;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.security.Caller;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The create path of the case-scoped resources. The assignment is derived from the projection,
 * never from the caller:
 * <ol>
 *   <li>read the case's projection row from the pool, before the transaction;</li>
 *   <li>authorize the create: 403. A case that is not known yet has no jurisdiction, so the create is
 *       denied before any ruleset runs (decision 12): nothing is created for a case no caller can read;</li>
 *   <li>in one transaction: claim the {@code Idempotency-Key}, if any (409 {@code IDEMPOTENCY_KEY_IN_USE}), and
 *       re-read the row {@code FOR SHARE}, both in one round trip; a pair or revision state other than the
 *       decision's is 409 {@code CONCURRENT_MODIFICATION}, a jurisdiction other than the decision's the empty 403; insert the row with the in-transaction
 *       triple; insert its audit record (decision 18), so that the two commit or roll back together.</li>
 * </ol>
 * A 403 or 409 {@code CONCURRENT_MODIFICATION} goes to the audit trail's refusal queue, outside any transaction.
 * Holding {@code FOR SHARE} until commit makes the projector, which locks the projection row before
 * it touches entity rows, wait for the create; it then sees the created row and brings it along.
 */
@Component
public class GuardedCreate {

    private final CaseAssignments assignments;
    private final PolicyEngine policy;
    private final TransactionTemplate transactions;
    private final AuditTrail audit;

    GuardedCreate(CaseAssignments assignments, PolicyEngine policy, TransactionTemplate transactions, AuditTrail audit) {
        this.assignments = assignments;
        this.policy = policy;
        this.transactions = transactions;
        this.audit = audit;
    }

    /**
     * @param requestId  the request's id, which its audit record names
     * @param id         the id the created row gets
     * @param resourceOf the resource the decision sees, built from the case's assignment
     * @param idempotent the request's key, claimed first in the transaction, its answer recorded last
     * @param insert     inserts the row with the given (in-transaction) assignment, under its hold, which the insert
     *                   takes; runs inside the transaction
     * @param respond    the answer to the created row; runs inside the transaction, before its audit record
     */
    public <V extends Versioned, T> ResponseEntity<T> run(Caller caller, String requestId, UUID caseId, UUID id,
                                                          IdempotentCreate<T> idempotent,
                                                          Function<ProjectedAssignment, ResourceRef> resourceOf,
                                                          Function<HeldAssignment, V> insert,
                                                          Function<V, ResponseEntity<T>> respond) {
        ProjectedAssignment authorized = assignments.read(caseId);
        ResourceRef requested = resourceOf.apply(authorized);
        Decision decision;
        try {
            decision = policy.require(caller, Action.CREATE, requested);
        } catch (PolicyDenied denial) {
            audit.denied(caller, requestId, AuditAction.CREATE, requested, denial, null);
            throw denial;
        }
        // the trace of what the transaction held, for a refusal's record after it
        AtomicReference<String> heldTrace = new AtomicReference<>();
        try {
            return transactions.execute(status -> {
                // the key's claim goes first, in the same round trip
                HeldAssignment hold = assignments.readForShare(caseId, idempotent.claimFirst()).orElseThrow(() -> new IllegalStateException(
                        "case " + caseId + " was authorized but has no projection row; projection rows are never deleted"));
                heldTrace.set(hold.traceId());
                ProjectedAssignment held = hold.assignment();
                String what = "The assignment of case " + caseId;
                if (held.known() != authorized.known()) {
                    throw ApiProblem.changedSinceAuthorization(what, List.of("assignment_revision"));
                }
                // the pair and the jurisdiction, as every update compares them
                StalenessGate.refuseIfChanged(StalenessGate.compared(Set.of()), requested, resourceOf.apply(held), what);
                V created = insert.apply(hold);
                ResponseEntity<T> response = respond.apply(created);
                // the key's record goes last, in the same round trip as the audit record
                audit.created(caller, requestId, decision, resourceOf.apply(held).withId(id),
                        new AuditTrail.Held(held.revision(), hold.traceId()), created.rowVersion(),
                        created instanceof InFosterHome home ? home.fosterHomeId() : null, idempotent.record(response));
                return response;
            });
        } catch (MovedAway moved) {
            audit.movedAway(caller, requestId, AuditAction.CREATE, requested);
            throw moved;
        } catch (ApiProblem problem) {
            audit.refused(caller, requestId, AuditAction.CREATE, requested, decision, problem, null, heldTrace.get());
            throw problem;
        }
    }
}
