package org.caseassignments.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

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
        Map<UUID, AssignmentUpdate> byCase = new LinkedHashMap<>();
        for (AssignmentUpdate update : updates) {
            byCase.merge(update.caseId(), update, (kept, candidate) -> {
                if (conflicting(kept, candidate)) {
                    conflicts.accept(candidate);
                }
                return keep(kept, candidate);
            });
        }
        List<AssignmentUpdate> survivors = new ArrayList<>(byCase.values());
        survivors.sort(Comparator.comparing(AssignmentUpdate::caseId));
        return survivors;
    }
}
