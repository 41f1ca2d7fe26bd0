package org.caseassignments.api.write;

import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The update path of every resource (PATCH, and the kinship soft delete). The If-Match header was
 * already parsed before this runs (428/400 first). Then, in this order:
 * <ol>
 *   <li>pre-read the row without a lock, outside any transaction: 404 when it does not exist;</li>
 *   <li>authorize before any transaction opens: the row as it is, and as it would be when the request
 *       changes a policy-visible input; 403 without ever taking a row lock;</li>
 *   <li>If-Match against the pre-read version: 412;</li>
 *   <li>in one transaction: the locked re-read (404 when gone), the staleness gate (409
 *       {@code CONCURRENT_MODIFICATION}), If-Match against the locked version (412), the transition
 *       (409 {@code INVALID_TRANSITION}), and the write with the version incremented.</li>
 * </ol>
 * The policy never runs while the row lock is held; the transaction only compares.
 */
@Component
public class GuardedUpdate {

    private final PolicyEngine policy;
    private final TransactionTemplate transactions;
    private final EntityTags etags;

    GuardedUpdate(PolicyEngine policy, TransactionTemplate transactions, EntityTags etags) {
        this.policy = policy;
        this.transactions = transactions;
        this.etags = etags;
    }

    public <R extends Versioned> R run(Caller caller, IfMatch ifMatch, UpdateSteps<R> steps) {
        R authorized = steps.preRead().orElseThrow(steps::notFound);
        policy.requireUpdate(caller, steps.resourceOf(authorized), steps.resourceOf(steps.afterImage(authorized)));
        ifMatch.require(etags.of(steps.resourceOf(authorized), authorized.rowVersion()), steps.describe());
        return transactions.execute(status -> {
            R locked = steps.lockedRead().orElseThrow(steps::notFound);
            steps.refuseIfStale(authorized, locked);
            ifMatch.require(etags.of(steps.resourceOf(locked), locked.rowVersion()), steps.describe());
            steps.validate(locked);
            return steps.write(locked);
        });
    }
}
