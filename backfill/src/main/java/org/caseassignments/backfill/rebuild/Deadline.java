package org.caseassignments.backfill.rebuild;

import java.time.Duration;

/**
 * When the swap's lock must be let go: checked between the steps of the work done under it, so the lock is held
 * at most about its budget (plus one step). Passing it rolls the swap back; the rebuild catches up and tries again.
 */
record Deadline(long nanos) {

    /** No deadline: the build outside the lock. */
    static final Deadline NONE = new Deadline(Long.MAX_VALUE);

    /** Thrown once the deadline has passed; the swap's transaction rolls back on it. */
    static final class Passed extends RuntimeException {
        Passed() {
            super("the swap's time under the lock ran out", null, false, false);
        }
    }

    static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos());
    }

    /** What is left, never negative. */
    Duration remaining() {
        return this == NONE ? Duration.ofDays(1) : Duration.ofNanos(Math.max(0, nanos - System.nanoTime()));
    }

    void check() {
        if (this != NONE && System.nanoTime() - nanos > 0) {
            throw new Passed();
        }
    }
}
