package org.caseassignments.store;

import java.util.ArrayList;
import java.util.Comparator;
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

    /** The survivors, sorted by case id: every writer locks projection rows in this one order. */
    public static List<AssignmentUpdate> highestRevisionPerCase(List<AssignmentUpdate> updates) {
        return highestRevisionPerCase(updates, conflict -> { });
    }

    /** As {@link #highestRevisionPerCase(List)}, telling {@code conflicts} each update dropped as {@link #conflicting}. */
    public static List<AssignmentUpdate> highestRevisionPerCase(List<AssignmentUpdate> updates,
                                                                Consumer<AssignmentUpdate> conflicts) {
        List<AssignmentUpdate> survivors = new ArrayList<>();
        perCase(updates, Function.identity(), (kept, dropped) -> {
            if (conflicting(kept, dropped)) {
                conflicts.accept(dropped);
            }
        }, dropped -> { }).forEach(kept -> survivors.add(kept.update()));
        survivors.sort(Comparator.comparing(AssignmentUpdate::caseId));
        return survivors;
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
     * @param setAside told each item the rule dropped, for its history entry (decision 32)
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
                    setAside.accept(candidate);
                    return kept;
                }
                setAside.accept(kept);
                return new Kept<>(candidate.item(), winner);
            });
        }
        return new ArrayList<>(byCase.values());
    }
}
