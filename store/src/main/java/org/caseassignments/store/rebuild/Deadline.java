package org.caseassignments.store.rebuild;

import java.time.Duration;

/**
 * When the swap's lock must be let go. Everything done under the lock is bounded by it: checked before each step,
 * each poll waits at most the time left, the end offsets are asked for with the time left, and every statement is
 * cancelled at it ({@link #statementTimeoutMillis}). Passing it rolls the swap back; the rebuild catches up and tries
 * again. Decision 24.
 */
public record Deadline(long nanos) {

    /** No deadline: the build outside the lock. */
    public static final Deadline NONE = new Deadline(Long.MAX_VALUE);

    /** Thrown once the deadline has passed; the swap's transaction rolls back on it. */
    public static final class Passed extends RuntimeException {
        public Passed() {
            super("the swap's time under the lock ran out", null, false, false);
        }
    }

    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos());
    }

    /** What is left, never negative. */
    public Duration remaining() {
        return this == NONE ? Duration.ofDays(1) : Duration.ofNanos(Math.max(0, nanos - System.nanoTime()));
    }

    /** {@code wait}, or what is left if that is shorter: how long a call that blocks may wait. */
    public Duration atMost(Duration wait) {
        Duration remaining = remaining();
        return remaining.compareTo(wait) < 0 ? remaining : wait;
    }

    /**
     * A {@code statement_timeout} that cancels a statement begun now at the deadline, not before it: the time left,
     * rounded up to the millisecond, and at least 1 (0 would mean no timeout).
     */
    public long statementTimeoutMillis() {
        long left = Math.max(0, nanos - System.nanoTime());
        return Math.max(1, (left + 999_999) / 1_000_000);
    }

    public void check() {
        if (this != NONE && System.nanoTime() - nanos > 0) {
            throw new Passed();
        }
    }
}
