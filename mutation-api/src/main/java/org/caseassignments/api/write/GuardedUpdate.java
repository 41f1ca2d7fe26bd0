package org.caseassignments.api.write;

import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.caseassignments.api.audit.AuditAction;
import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceField;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.UpdateAuthorization;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The update path of every resource (PATCH, and the kinship soft delete). The If-Match header was
 * already parsed before this runs (428/400 first). Then, in this order:
 * <ol>
 *   <li>pre-read the row without a lock, outside any transaction: 404 when it does not exist;</li>
 *   <li>authorize before any transaction opens: the row as it is, and as it would be when the request
 *       changes a policy-visible input; 403 without ever taking a row lock. The decision names the
 *       fields it consumed: every field the ruleset's update rules for this type read, plus
 *       {@link StalenessGate#ALWAYS_COMPARED};</li>
 *   <li>If-Match against the pre-read version: 412;</li>
 *   <li>in one transaction: the locked re-read (404 when gone), the staleness gate on those fields
 *       (409 {@code CONCURRENT_MODIFICATION}; the empty 403 when the case moved to another jurisdiction), If-Match against the locked version (412), a request
 *       that would leave the locked row as it is (400 {@code VALIDATION_FAILED}: no write, so no new
 *       version and no 412 for other holders of the tag), the transition (409 {@code INVALID_TRANSITION}),
 *       the write with the version incremented, and its audit record (decision 18), so that the two commit
 *       or roll back together.</li>
 * </ol>
 * A 403, 409 {@code CONCURRENT_MODIFICATION} or 412 is handed to the audit trail's refusal queue after the
 * transaction, if any, has ended: a refused path opens no transaction for its record.
 * The policy never runs while the row lock is held; the transaction only compares.
 *
 * <p><b>Why the authorized after-image is the written one.</b> The after-image is the request applied
 * to the authorized row; the write is the request applied to the locked row. Every
 * {@link ResourceUpdate#afterImage} applies a request field by field, so a compared field of the result
 * depends only on the request and on the same field of the row; the gate has just shown the two rows
 * equal on every compared field, so the two results are too. The gate compares the two after-images
 * as well: for field-wise requests that never refuses, and it keeps the guarantee should a request
 * ever derive one field from another.
 */
@Component
public class GuardedUpdate {

    private final PolicyEngine policy;
    private final TransactionTemplate transactions;
    private final EntityTags etags;
    private final AuditTrail audit;

    GuardedUpdate(PolicyEngine policy, TransactionTemplate transactions, EntityTags etags, AuditTrail audit) {
        this.policy = policy;
        this.transactions = transactions;
        this.etags = etags;
        this.audit = audit;
    }

    /** @param requestId the request's id, which its audit record names */
    public <R extends Versioned> R run(Caller caller, String requestId, IfMatch ifMatch, ResourceUpdate<R> steps) {
        R authorized = steps.preRead().orElseThrow(steps::notFound);
        AuditAction action = steps.deletes() ? AuditAction.DELETE : AuditAction.UPDATE;
        ResourceRef before = steps.resourceOf(authorized);
        ResourceRef after = steps.resourceOf(steps.afterImage(authorized));
        UpdateAuthorization authorization;
        try {
            authorization = policy.requireUpdate(caller, before, after);
        } catch (PolicyDenied denial) {
            audit.denied(caller, requestId, action, before, denial, authorized.rowVersion());
            throw denial;
        }
        Set<ResourceField> compared = StalenessGate.compared(authorization.reads());
        // the trace of what the transaction held, for a refusal's record after it
        AtomicReference<String> heldTrace = new AtomicReference<>();
        try {
            ifMatch.require(etags.of(before, authorized.rowVersion(), authorized.derivedState()), steps.describe());
            return transactions.execute(status -> {
                Locked<R> lock = steps.lockedRead().orElseThrow(steps::notFound);
                heldTrace.set(lock.assignmentTraceId());
                R locked = lock.row();
                ResourceRef lockedResource = steps.resourceOf(locked);
                StalenessGate.refuseIfChanged(compared, before, lockedResource, steps.describe());
                StalenessGate.refuseIfChanged(compared, after, steps.resourceOf(steps.afterImage(locked)), steps.describe());
                ifMatch.require(etags.of(lockedResource, locked.rowVersion(), locked.derivedState()), steps.describe());
                if (!steps.changes(locked)) {
                    throw ApiProblem.invalidField("", steps.describe() + " already has every value the request gives; "
                            + "nothing was written and its version did not move");
                }
                steps.validate(locked);
                R written = steps.write(lock);
                // the pair the gate compared and the revision that came with it, under the lock
                audit.updated(caller, requestId, action, authorization, lockedResource,
                        new AuditTrail.Held(locked instanceof AssignmentCopy copy ? copy.assignmentRevision() : null,
                                lock.assignmentTraceId()),
                        locked.rowVersion(), written.rowVersion(),
                        written instanceof InFosterHome home ? home.fosterHomeId() : null);
                return written;
            });
        } catch (MovedAway moved) {
            audit.movedAway(caller, requestId, action, before);
            throw moved;
        } catch (ApiProblem problem) {
            audit.refused(caller, requestId, action, before, authorization.before(), problem, authorized.rowVersion(),
                    heldTrace.get());
            throw problem;
        }
    }
}
