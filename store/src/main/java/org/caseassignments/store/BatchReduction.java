package org.caseassignments.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Keeps one update per case in a batch, by the rule the guard applies row by row, so applying the
 * survivors gives the same result as applying every update one by one in order, whatever the batching:
 * the higher revision wins; at an equal revision the first update stays under the strictly-newer guard
 * (events: a second event at a revision already taken changes nothing) and the later one wins under the
 * converge guard (snapshot rows: the later row converges the values). The winner keeps the jurisdiction
 * the update it replaced carried when it carries none itself, as the upsert's
 * {@code coalesce(EXCLUDED.jurisdiction, stored)} would have kept it had each been written on its own
 * (decision 26).
 */
public final class BatchReduction {

    private BatchReduction() {
    }

    /**
     * Of two updates of one case, the one to keep; {@code candidate} came after {@code kept}. A winning
     * candidate without a jurisdiction comes back carrying {@code kept}'s ({@link #replacing}).
     */
    public static AssignmentUpdate keep(AssignmentUpdate kept, AssignmentUpdate candidate) {
        return candidateWins(candidate.guard(), kept.revision(), candidate.revision()) ? replacing(kept, candidate) : kept;
    }

    /**
     * {@code winner} as it replaces {@code kept}: itself, or, when it carries no jurisdiction and {@code kept}
     * does, itself with {@code kept}'s — the row written one by one would keep it ({@code coalesce}).
     */
    public static AssignmentUpdate replacing(AssignmentUpdate kept, AssignmentUpdate winner) {
        return winner.jurisdiction() == null && kept.jurisdiction() != null
                ? winner.withJurisdiction(kept.jurisdiction()) : winner;
    }

    /** The same rule on the revisions alone, for callers that keep the kept update's revision at hand. */
    public static boolean candidateWins(Guard guard, long keptRevision, long candidateRevision) {
        return candidateRevision > keptRevision
                || candidateRevision == keptRevision && guard == Guard.NEWER_OR_CONVERGE;
    }

    /**
     * Whether the two updates of one case claim one revision with different assignments under the
     * strictly-newer guard: an upstream contract violation, where the first stays ({@link Outcome#CONFLICTING}).
     */
    public static boolean conflicting(AssignmentUpdate kept, AssignmentUpdate candidate) {
        return candidate.guard() == Guard.STRICTLY_NEWER && kept.revision() == candidate.revision()
                && !(Objects.equals(kept.assignedWorkerSub(), candidate.assignedWorkerSub())
                     && Objects.equals(kept.supervisorSub(), candidate.supervisorSub()));
    }

    /**
     * The survivors, sorted by case id in PostgreSQL's order ({@link CaseIds#POSTGRES_ORDER}): every writer locks
     * projection rows in this one order.
     */
    public static List<AssignmentUpdate> highestRevisionPerCase(List<AssignmentUpdate> updates) {
        return reduce(updates).updates();
    }

    /** A list of updates as a {@link ReducedBatch}: the rule's pass over it ({@link #reduce(List, Function, Function)}). */
    public static ReducedBatch<AssignmentUpdate> reduce(List<AssignmentUpdate> updates) {
        return reduce(updates, Function.identity(), update -> null);
    }

    /**
     * The one pass of the rule over a batch of items read in order ({@link #perCase}), as the {@link ReducedBatch} the
     * batch writer takes: the kept item of each case, the items set aside for its history, and the items dropped as
     * {@link #conflicting} a kept one, which the writer reports.
     *
     * @param occurredAt when each item's event happened upstream (null when unknown)
     */
    public static <T> ReducedBatch<T> reduce(List<T> items, Function<T, AssignmentUpdate> updateOf,
                                             Function<T, Instant> occurredAt) {
        List<ReducedBatch.Entry<T>> setAside = new ArrayList<>();
        List<AssignmentUpdate> conflicts = new ArrayList<>();
        List<Kept<T>> kept = perCase(items, updateOf, (first, candidate) -> {
            if (conflicting(first, candidate)) {
                conflicts.add(candidate);
            }
        }, dropped -> setAside.add(new ReducedBatch.Entry<>(dropped.item(), dropped.update(),
                occurredAt.apply(dropped.item()))));
        List<ReducedBatch.Entry<T>> entries = new ArrayList<>(kept.size());
        kept.forEach(k -> entries.add(new ReducedBatch.Entry<>(k.item(), k.update(), occurredAt.apply(k.item()))));
        return ReducedBatch.reduced(entries, setAside, conflicts, items.size());
    }

    /** An item kept for its case, with the update it is written as ({@link #keep} may have given it a jurisdiction). */
    public record Kept<T>(T item, AssignmentUpdate update) {
    }

    /**
     * The one pass of the rule over a batch of items, in the order given: the kept item of each case, in the order
     * its case first appeared.
     *
     * @param meetings told (kept, candidate) each time an item meets its case's kept item, before the rule decides:
     *                 where a caller reports {@link #conflicting} pairs
     * @param setAside told each item the rule dropped, for its history entry (decision 32), in the order given; not an
     *                 item dropped at the revision of the item kept, which came first and stands for that revision
     */
    public static <T> List<Kept<T>> perCase(List<T> items, Function<T, AssignmentUpdate> updateOf,
                                            BiConsumer<AssignmentUpdate, AssignmentUpdate> meetings,
                                            Consumer<Kept<T>> setAside) {
        Map<UUID, Kept<T>> byCase = new LinkedHashMap<>();
        for (T item : items) {
            AssignmentUpdate update = updateOf.apply(item);
            byCase.merge(update.caseId(), new Kept<>(item, update), (kept, candidate) -> {
                meetings.accept(kept.update(), candidate.update());
                AssignmentUpdate winner = keep(kept.update(), candidate.update());
                if (winner == kept.update()) {
                    // at the kept one's revision the kept, earlier one is the revision's entry: the first stays
                    if (candidate.update().revision() != kept.update().revision()) {
                        setAside.accept(candidate);
                    }
                    return kept;
                }
                setAside.accept(kept);
                return new Kept<>(candidate.item(), winner);
            });
        }
        return new ArrayList<>(byCase.values());
    }

    /**
     * The kept item of each case while a batch is gathered, by {@link BatchReduction#keep}: the projector's pending
     * batch, one per task, used by its stream thread only; {@link #batch()} is what it gathered, as the
     * {@link ReducedBatch} the batch writer takes. An open-addressing table (linear probing) that keeps each
     * slot's case id next to the others in one {@code long[]}, so finding an event's case costs one memory access
     * where a {@code HashMap<UUID, AssignmentUpdate>} costs four; no library map takes a 128-bit key inline. Only an
     * event whose case is already held reads the kept item, for the rule to compare the two. Besides the table it
     * keeps, in the order they came, the items the rule set aside (history, decision 47); an item it drops as
     * {@link BatchReduction#conflicting} the kept one is not kept: {@link #add} says so, and its caller reports it then,
     * in the context of the record it came in ({@link BatchWriter#conflictInBatch}). What it measured: BENCHMARKS.md,
     * Projector.
     *
     * @param <T> what the caller keeps per event (the record it came in)
     */
    public static final class NewestPerCase<T> {

        /** Longs per slot: the case id's two halves, then the revision plus one (0 marks an empty slot). */
        private static final int STRIDE = 3;
        private static final int MIN_CAPACITY = 1 << 10;
        /** The arrays of a table at its least capacity, which it keeps while empty. */
        private static final long EMPTY_ARRAYS = HeapBytes.array((long) MIN_CAPACITY * STRIDE, Long.BYTES)
                + HeapBytes.references(MIN_CAPACITY);
        /** An item's entry: the item, its update and when it happened. */
        private static final long ENTRY = HeapBytes.object(3, 0);
        /** An update the rule made for a kept item (its jurisdiction from the one it replaced). */
        private static final long UPDATE = HeapBytes.object(6, 8);

        /** A new list for each batch, so that a batch does not keep the capacity a larger one left. */
        private List<ReducedBatch.Entry<T>> setAside = new ArrayList<>();
        private long[] slots;
        private Object[] entries;
        private int shift;
        private int size;
        private int events;
        /** Updates the rule made (a kept item given the jurisdiction of the one it replaced) since the last clear. */
        private int madeUpdates;

        public NewestPerCase() {
            allocate(MIN_CAPACITY);
        }

        /**
         * Keeps {@code item} unless its case holds a higher or equal revision (at an equal one the first stays);
         * a kept item carries the jurisdiction of the one it replaced when it has none of its own. An item the rule
         * drops stays as the history of its case ({@link ReducedBatch#history()}), unless it came at the revision of
         * the kept one, which came first and is that revision's entry.
         *
         * @param occurredAt when the item's event happened upstream (null when unknown)
         * @return whether the table holds the item (kept, or set aside for the history), or dropped it at its case's
         *         kept revision: as a duplicate, or as {@link BatchReduction#conflicting} the kept one
         */
        public Added add(T item, AssignmentUpdate update, Instant occurredAt) {
            events++;
            ReducedBatch.Entry<T> entry = new ReducedBatch.Entry<>(item, update, occurredAt);
            UUID caseId = update.caseId();
            long high = caseId.getMostSignificantBits();
            long low = caseId.getLeastSignificantBits();
            int slot = slotOf(high, low);
            if (slots[slot * STRIDE + 2] == 0) {
                put(slot, high, low, entry);
                if (++size * 2 > entries.length) {
                    grow();
                }
                return Added.HELD;
            }
            ReducedBatch.Entry<T> kept = entry(slot);
            AssignmentUpdate winner = keep(kept.update(), update);
            if (winner != kept.update()) {
                if (winner != update) {
                    madeUpdates++;
                }
                put(slot, high, low, winner == update ? entry : new ReducedBatch.Entry<>(item, winner, occurredAt));
                setAside.add(kept);
                return Added.HELD;
            }
            if (update.revision() != kept.update().revision()) {
                setAside.add(entry);
                return Added.HELD;
            }
            return conflicting(kept.update(), update) ? Added.CONFLICTING : Added.DUPLICATE;
        }

        /** What {@link #add} did with an item. */
        public enum Added {
            /** Kept for its case, or set aside for its history: the table holds it. */
            HELD,
            /** Dropped: its case's kept item came first at its revision with the same assignment. */
            DUPLICATE,
            /** Dropped: its case's kept item came first at its revision with another assignment (to be reported). */
            CONFLICTING
        }

        /** What the table gathered: the kept item of each case, and what it set aside since it was cleared. */
        public ReducedBatch<T> batch() {
            List<ReducedBatch.Entry<T>> kept = new ArrayList<>(size);
            for (int slot = 0; slot < entries.length; slot++) {
                if (entries[slot] != null) {
                    kept.add(entry(slot));
                }
            }
            return ReducedBatch.reduced(kept, setAside, List.of(), events);
        }

        /** The revision of the item kept for {@code caseId}, or -1 when none is held. */
        public long revision(UUID caseId) {
            return slots[slotOf(caseId.getMostSignificantBits(), caseId.getLeastSignificantBits()) * STRIDE + 2] - 1;
        }

        /** The slot that holds the case, or the empty slot where it would go (linear probing). */
        private int slotOf(long high, long low) {
            int mask = entries.length - 1;
            for (int slot = index(high, low); ; slot = (slot + 1) & mask) {
                int at = slot * STRIDE;
                if (slots[at + 2] == 0 || slots[at] == high && slots[at + 1] == low) {
                    return slot;
                }
            }
        }

        /**
         * What the table keeps on the heap beyond what it keeps empty, besides its items and their own updates
         * ({@link HeapBytes}): its arrays' growth, an entry for each item it holds, the list of those set aside, and
         * the updates the rule made. With what each held item keeps, what a byte budget of a pending batch counts.
         */
        public long footprint() {
            long setAsideSlots = setAside.size() + (setAside.size() >> 1); // a list grows by half
            return HeapBytes.array(slots.length, Long.BYTES) + HeapBytes.references(entries.length) - EMPTY_ARRAYS
                    + (size + setAside.size()) * ENTRY + madeUpdates * UPDATE
                    + (setAside.isEmpty() ? 0 : HeapBytes.references(setAsideSlots));
        }

        /** Distinct cases held. */
        public int size() {
            return size;
        }

        public boolean isEmpty() {
            return size == 0;
        }

        /**
         * Empties the table. It keeps its capacity while it was at least an eighth full, as the next batch of
         * a task catching up needs about as much; after a small batch it shrinks back, so a task does not
         * hold a backlog's table (28 bytes a slot, two to four slots a case) while it keeps up. The list of items set
         * aside starts anew (its array is not kept), and what the table keeps is in {@link #footprint}.
         */
        public void clear() {
            if (!setAside.isEmpty()) {
                setAside = new ArrayList<>();
            }
            events = 0;
            madeUpdates = 0;
            if (entries.length > MIN_CAPACITY && size * 8 < entries.length) {
                allocate(MIN_CAPACITY);
            } else if (size > 0) {
                Arrays.fill(slots, 0);
                Arrays.fill(entries, null);
                size = 0;
            }
        }

        @SuppressWarnings("unchecked")
        private ReducedBatch.Entry<T> entry(int slot) {
            return (ReducedBatch.Entry<T>) entries[slot];
        }

        private void put(int slot, long high, long low, ReducedBatch.Entry<T> entry) {
            int at = slot * STRIDE;
            slots[at] = high;
            slots[at + 1] = low;
            slots[at + 2] = entry.update().revision() + 1; // revisions are >= 0, so never 0 here
            entries[slot] = entry;
        }

        /** Fibonacci hashing of both halves: the top bits of the product, which depend on every bit of the id. */
        private int index(long high, long low) {
            return (int) (((high * 31 + low) * 0x9E3779B97F4A7C15L) >>> shift);
        }

        private void grow() {
            Object[] held = entries;
            allocate(held.length * 2);
            for (Object held1 : held) {
                if (held1 != null) {
                    @SuppressWarnings("unchecked")
                    ReducedBatch.Entry<T> entry = (ReducedBatch.Entry<T>) held1;
                    UUID caseId = entry.update().caseId();
                    long high = caseId.getMostSignificantBits();
                    long low = caseId.getLeastSignificantBits();
                    put(slotOf(high, low), high, low, entry);
                    size++;
                }
            }
        }

        private void allocate(int capacity) {
            slots = new long[capacity * STRIDE];
            entries = new Object[capacity];
            shift = Long.SIZE - Integer.numberOfTrailingZeros(capacity);
            size = 0;
        }
    }
}
