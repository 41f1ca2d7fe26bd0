package org.caseassignments.backfill.assignments;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * The batches being written at once, oldest first. A new batch may join only while there is room and
 * it shares no case with a batch in the window; otherwise the oldest must finish first. So batches
 * written at the same time never touch the same projection or entity rows (they cannot wait on each
 * other), and every case's rows are applied in the order the snapshot holds them.
 *
 * @param <T> what the caller keeps per batch
 */
final class BatchWindow<T> {

    private record Entry<T>(Set<UUID> cases, T batch) {
    }

    private final int capacity;
    private final Deque<Entry<T>> batches = new ArrayDeque<>();
    private final Set<UUID> casesInWindow = new HashSet<>();

    BatchWindow(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a window holds at least one batch, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Whether the oldest batch must finish before a batch of these cases may join. */
    boolean mustWait(Collection<UUID> cases) {
        if (batches.isEmpty()) {
            return false;
        }
        if (batches.size() >= capacity) {
            return true;
        }
        for (UUID caseId : cases) {
            if (casesInWindow.contains(caseId)) {
                return true;
            }
        }
        return false;
    }

    void add(Collection<UUID> cases, T batch) {
        if (mustWait(cases)) {
            throw new IllegalStateException("the batch must wait: the window is full or shares a case with it");
        }
        Set<UUID> distinct = new HashSet<>(cases);
        casesInWindow.addAll(distinct);
        batches.addLast(new Entry<>(distinct, batch));
    }

    T removeOldest() {
        Entry<T> oldest = batches.removeFirst();
        casesInWindow.removeAll(oldest.cases());
        return oldest.batch();
    }

    boolean isEmpty() {
        return batches.isEmpty();
    }
}
