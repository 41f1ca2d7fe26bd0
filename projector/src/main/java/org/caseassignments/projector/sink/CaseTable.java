package org.caseassignments.projector.sink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchReduction;

/**
 * The pending update of each case, reduced by {@link BatchReduction#candidateWins}: an open-addressing
 * table (linear probing) that keeps each slot's case id and revision next to each other in one
 * {@code long[]}. In a backlog every case changes before any changes again, so the pending entry an
 * event meets is never in the CPU cache: here deciding it costs one memory access, where a
 * {@code HashMap<UUID, AssignmentUpdate>} costs four (bucket, node, key, value). That map was a quarter
 * of the stream threads' time in the projector benchmark. No library map takes a 128-bit key inline.
 * One per task, used by its stream thread only.
 */
final class CaseTable {

    /** Longs per slot: the case id's two halves, then the revision plus one (0 marks an empty slot). */
    private static final int STRIDE = 3;
    private static final int MIN_CAPACITY = 1 << 10;

    private long[] slots;
    private AssignmentUpdate[] updates;
    private int shift;
    private int size;

    CaseTable() {
        allocate(MIN_CAPACITY);
    }

    /** Keeps {@code update} unless its case holds a higher revision (on a tie the later update wins). */
    void add(AssignmentUpdate update) {
        UUID caseId = update.caseId();
        long high = caseId.getMostSignificantBits();
        long low = caseId.getLeastSignificantBits();
        int mask = updates.length - 1;
        for (int slot = index(high, low); ; slot = (slot + 1) & mask) {
            int at = slot * STRIDE;
            long storedRevision = slots[at + 2] - 1;
            if (storedRevision == -1) {
                put(slot, high, low, update);
                if (++size * 2 > updates.length) {
                    grow();
                }
                return;
            }
            if (slots[at] == high && slots[at + 1] == low) {
                if (BatchReduction.candidateWins(storedRevision, update.revision())) {
                    put(slot, high, low, update);
                }
                return;
            }
        }
    }

    /** Distinct cases held. */
    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The kept update of each case, in no particular order. */
    List<AssignmentUpdate> values() {
        List<AssignmentUpdate> values = new ArrayList<>(size);
        for (AssignmentUpdate update : updates) {
            if (update != null) {
                values.add(update);
            }
        }
        return values;
    }

    /**
     * Empties the table. It keeps its capacity while it was at least an eighth full, as the next batch of
     * a task catching up needs about as much; after a small batch it shrinks back, so a task does not
     * hold a backlog's table (28 bytes a slot, two to four slots a case) while it keeps up.
     */
    void clear() {
        if (updates.length > MIN_CAPACITY && size * 8 < updates.length) {
            allocate(MIN_CAPACITY);
        } else if (size > 0) {
            Arrays.fill(slots, 0);
            Arrays.fill(updates, null);
            size = 0;
        }
    }

    private void put(int slot, long high, long low, AssignmentUpdate update) {
        int at = slot * STRIDE;
        slots[at] = high;
        slots[at + 1] = low;
        slots[at + 2] = update.revision() + 1; // revisions are >= 0, so never 0 here
        updates[slot] = update;
    }

    /** Fibonacci hashing of both halves: the top bits of the product, which depend on every bit of the id. */
    private int index(long high, long low) {
        return (int) (((high * 31 + low) * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private void grow() {
        AssignmentUpdate[] kept = updates;
        allocate(kept.length * 2);
        for (AssignmentUpdate update : kept) {
            if (update != null) {
                add(update);
            }
        }
    }

    private void allocate(int capacity) {
        slots = new long[capacity * STRIDE];
        updates = new AssignmentUpdate[capacity];
        shift = Long.SIZE - Integer.numberOfTrailingZeros(capacity);
        size = 0;
    }
}
