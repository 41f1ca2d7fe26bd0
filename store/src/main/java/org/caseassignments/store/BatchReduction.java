package org.caseassignments.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Keeps only the highest revision per case in a batch. Applying the survivors with the guard gives
 * the same result as applying every update one by one in any order, because the guard keeps only
 * the highest revision anyway. On a tie the later update wins, as it would sequentially under the
 * converge guard (under the strictly-newer guard a tie does not occur between distinct upstream writes).
 */
public final class BatchReduction {

    private BatchReduction() {
    }

    /**
     * Of two updates of one case, the one to keep: the higher revision, or on a tie the later one. For
     * callers that gather updates by case themselves, so every reduction follows this one rule.
     */
    public static AssignmentUpdate higherOrLater(AssignmentUpdate kept, AssignmentUpdate candidate) {
        return candidateWins(kept.revision(), candidate.revision()) ? candidate : kept;
    }

    /** The same rule on the revisions alone, for callers that keep the kept update's revision at hand. */
    public static boolean candidateWins(long keptRevision, long candidateRevision) {
        return candidateRevision >= keptRevision;
    }

    /** The survivors, sorted by case id: every writer locks projection rows in this one order. */
    public static List<AssignmentUpdate> highestRevisionPerCase(List<AssignmentUpdate> updates) {
        Map<UUID, AssignmentUpdate> byCase = new LinkedHashMap<>();
        for (AssignmentUpdate update : updates) {
            byCase.merge(update.caseId(), update, BatchReduction::higherOrLater);
        }
        List<AssignmentUpdate> survivors = new ArrayList<>(byCase.values());
        survivors.sort(Comparator.comparing(AssignmentUpdate::caseId));
        return survivors;
    }
}
