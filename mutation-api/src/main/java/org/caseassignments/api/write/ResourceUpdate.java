package org.caseassignments.api.write;

import java.util.Optional;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;

/**
 * What one resource contributes to {@link GuardedUpdate}: how to read it, how the policy sees it,
 * what the request changes, and how to write it. One instance serves one request.
 *
 * @param <R> the row type
 */
public interface ResourceUpdate<R extends Versioned> {

    /** "Placement 6f1c…", for problem details. */
    String describe();

    /** The row as committed now, without a lock; called outside any transaction. */
    Optional<R> preRead();

    /**
     * The row locked {@code FOR NO KEY UPDATE}, after its case's assignment was held {@code FOR SHARE} when the row
     * has a case, with the trace of what was held; called first inside the transaction. Empty when gone.
     */
    Optional<Locked<R>> lockedRead();

    /**
     * The resource as the policy sees this row; the same builder serves the before- and the after-image
     * and the locked row, so the staleness gate compares like with like.
     */
    ResourceRef resourceOf(R row);

    /**
     * The row with the request's values applied, as it would be after the write. Field by field: a
     * field of the result is the request's value or the row's value of that same field, never derived
     * from another field (this is what makes the authorized after-image the written one; see
     * {@link GuardedUpdate}).
     */
    R afterImage(R row);

    /**
     * Whether the write would change the locked row. By default, whether the after-image differs from it:
     * a no-op PATCH is refused against the row as it is under the lock, never against a pre-read.
     */
    default boolean changes(R locked) {
        return !afterImage(locked).equals(locked);
    }

    /** Checks the change against the locked row: a refused state transition is 409 {@code INVALID_TRANSITION}. */
    void validate(R locked);

    /**
     * Writes the change over the locked row, incrementing its version; returns the row as written. A row of a case is
     * written with the hold of its case ({@link Locked#held}).
     */
    R write(Locked<R> locked);

    /** Whether the write is the resource's (soft) delete, authorized as an update and audited as a delete. */
    default boolean deletes() {
        return false;
    }

    default ApiProblem notFound() {
        return new ApiProblem(ProblemCode.NOT_FOUND, describe() + " does not exist");
    }
}
