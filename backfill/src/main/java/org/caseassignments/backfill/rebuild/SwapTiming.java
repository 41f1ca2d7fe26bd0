package org.caseassignments.backfill.rebuild;

import java.time.Duration;

/**
 * What a swap cost the projection's other users: every reader and writer that arrives while the swap waits for its
 * lock or holds it queues behind it, so the longest pause anyone sees is at most {@code waited + held}.
 *
 * @param attempts    how many times the lock was asked for (each but the last gave up after the lock timeout)
 * @param lockTimeout how long each attempt that gave up made the queue behind it wait
 * @param waited      the last attempt's wait for the lock
 * @param held        from the lock granted to the commit: the tail read under the lock, the renames, the commit
 * @param tail        events read from the topics under the lock
 */
record SwapTiming(int attempts, Duration lockTimeout, Duration waited, Duration held, long tail) {

    /** The last attempt's wait and hold, or a whole lock timeout if an attempt gave up and that was longer. */
    Duration longestPause() {
        Duration last = waited.plus(held);
        return attempts > 1 && lockTimeout.compareTo(last) > 0 ? lockTimeout : last;
    }
}
