package org.caseassignments.store;

/**
 * What the guarded write did with one update (after reduction to one per case), judged against
 * the projection row it met.
 */
public enum Outcome {

    /** The case had no projection row; now it has one. */
    INSERTED,

    /** The row moved to a greater revision (a placeholder, at −1, is replaced this way). */
    ADVANCED,

    /** Same revision, another pair: the values converged to the update's (snapshot guard only). */
    CONVERGED,

    /** Same revision and nothing to do: the same pair, or an equal revision under the strictly-newer guard. */
    UNCHANGED,

    /**
     * Same revision, another pair, and the stored pair stays (strictly-newer guard): two events claim one
     * revision of the case with different assignments, which upstream must never do. The first one written
     * stays, whatever the batching.
     */
    CONFLICTING,

    /** The stored revision is greater: the update is older and changed nothing. */
    SKIPPED_OLDER
}
