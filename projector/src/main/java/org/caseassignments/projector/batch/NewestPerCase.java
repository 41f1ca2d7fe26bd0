package org.caseassignments.projector.batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchReduction;

/**
 * The pending item of each case, reduced by {@link BatchReduction#keep} (the one statement of the rule: the higher
 * revision wins; at an equal revision the first event stays): an open-addressing table (linear probing) that keeps
 * each slot's case id next to the others in one {@code long[]}, so finding an event's case costs one memory
 * access where a {@code HashMap<UUID, AssignmentUpdate>} costs four; no library map takes a 128-bit key inline.
 * Only an event whose case is already held reads the kept item, for the rule to compare the two. What it measured: BENCHMARKS.md, Projector. One per task, used by its stream thread only.
 *
 * @param <T> what is kept per case: an update, or an update with the record it came in
 */
final class NewestPerCase<T> {

    /** Longs per slot: the case id's two halves, then the revision plus one (0 marks an empty slot). */
    private static final int STRIDE = 3;
    private static final int MIN_CAPACITY = 1 << 10;

    private final Function<T, AssignmentUpdate> updateOf;
    private final BiFunction<T, AssignmentUpdate, T> withUpdate;
    private final BiConsumer<T, T> conflicts;
    private long[] slots;
    private Object[] items;
    private int shift;
    private int size;

    /**
     * @param withUpdate the item with another update: a winner that takes the jurisdiction of the item it
     *                   replaces ({@link BatchReduction#replacing})
     * @param conflicts  told (kept, dropped) when an item meets its case's kept item at the same revision
     *                   with another assignment ({@link BatchReduction#conflicting})
     */
    NewestPerCase(Function<T, AssignmentUpdate> updateOf, BiFunction<T, AssignmentUpdate, T> withUpdate,
                  BiConsumer<T, T> conflicts) {
        this.updateOf = updateOf;
        this.withUpdate = withUpdate;
        this.conflicts = conflicts;
        allocate(MIN_CAPACITY);
    }

    /**
     * Keeps {@code item} unless its case holds a higher or equal revision (at an equal one the first stays);
     * a kept item carries the jurisdiction of the one it replaced when it has none of its own.
     *
     * @return the item the table no longer holds: the one {@code item} replaced, or {@code item} itself when it was
     *         not kept; null when its case is new
     */
    T add(T item) {
        AssignmentUpdate update = updateOf.apply(item);
        UUID caseId = update.caseId();
        long high = caseId.getMostSignificantBits();
        long low = caseId.getLeastSignificantBits();
        int mask = items.length - 1;
        for (int slot = index(high, low); ; slot = (slot + 1) & mask) {
            int at = slot * STRIDE;
            if (slots[at + 2] == 0) {
                put(slot, high, low, update.revision(), item);
                if (++size * 2 > items.length) {
                    grow();
                }
                return null;
            }
            if (slots[at] == high && slots[at + 1] == low) {
                T kept = item(slot);
                AssignmentUpdate keptUpdate = updateOf.apply(kept);
                AssignmentUpdate winner = BatchReduction.keep(keptUpdate, update);
                if (winner != keptUpdate) {
                    put(slot, high, low, update.revision(), winner == update ? item : withUpdate.apply(item, winner));
                    return kept;
                }
                if (BatchReduction.conflicting(keptUpdate, update)) {
                    conflicts.accept(kept, item);
                }
                return item;
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

    /** The kept item of each case, in no particular order. */
    List<T> values() {
        List<T> values = new ArrayList<>(size);
        for (int slot = 0; slot < items.length; slot++) {
            if (items[slot] != null) {
                values.add(item(slot));
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
        if (items.length > MIN_CAPACITY && size * 8 < items.length) {
            allocate(MIN_CAPACITY);
        } else if (size > 0) {
            Arrays.fill(slots, 0);
            Arrays.fill(items, null);
            size = 0;
        }
    }

    @SuppressWarnings("unchecked")
    private T item(int slot) {
        return (T) items[slot];
    }

    private void put(int slot, long high, long low, long revision, T item) {
        int at = slot * STRIDE;
        slots[at] = high;
        slots[at + 1] = low;
        slots[at + 2] = revision + 1; // revisions are >= 0, so never 0 here
        items[slot] = item;
    }

    /** Fibonacci hashing of both halves: the top bits of the product, which depend on every bit of the id. */
    private int index(long high, long low) {
        return (int) (((high * 31 + low) * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private void grow() {
        Object[] kept = items;
        allocate(kept.length * 2);
        for (Object item : kept) {
            if (item != null) {
                @SuppressWarnings("unchecked")
                T typed = (T) item;
                add(typed);
            }
        }
    }

    private void allocate(int capacity) {
        slots = new long[capacity * STRIDE];
        items = new Object[capacity];
        shift = Long.SIZE - Integer.numberOfTrailingZeros(capacity);
        size = 0;
    }
}
