package org.caseassignments.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What one guarded apply changed.
 *
 * @param proposed               updates after reduction to one per case
 * @param insertedCases          cases that had no projection row and now have one
 * @param advancedCases          cases whose existing row moved (newer revision, placeholder replaced, or converged)
 * @param placementsUpdated      placement rows that took the projection's assignment
 * @param kinshipOptionsUpdated  kinship rows that took the projection's assignment
 * @param entityRowsHealed       of those, rows that kept their revision and only took the pair
 *                               (rows born while their case was unknown, or converged by a backfill)
 * @param outcomes               each proposed case's outcome, in case-id order (empty when built
 *                               without detail, by the six-argument constructor)
 */
public record ApplyResult(int proposed, List<UUID> insertedCases, List<UUID> advancedCases,
                          int placementsUpdated, int kinshipOptionsUpdated, int entityRowsHealed,
                          Map<UUID, Outcome> outcomes) {

    /** Nothing proposed, nothing changed. */
    public static final ApplyResult NONE = new ApplyResult(0, List.of(), List.of(), 0, 0, 0, Map.of());

    public ApplyResult {
        outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    }

    /** A result without per-case outcomes. */
    public ApplyResult(int proposed, List<UUID> insertedCases, List<UUID> advancedCases,
                       int placementsUpdated, int kinshipOptionsUpdated, int entityRowsHealed) {
        this(proposed, insertedCases, advancedCases, placementsUpdated, kinshipOptionsUpdated, entityRowsHealed, Map.of());
    }

    /**
     * The results of a batch written in several transactions, added up as they come: each is copied once, so a
     * batch of 200,000 rows written in hundreds of parts costs its rows, not parts × rows.
     */
    public static final class Total {
        private int proposed;
        private final List<UUID> insertedCases = new ArrayList<>();
        private final List<UUID> advancedCases = new ArrayList<>();
        private int placementsUpdated;
        private int kinshipOptionsUpdated;
        private int entityRowsHealed;
        private final Map<UUID, Outcome> outcomes = new LinkedHashMap<>();

        public void add(ApplyResult result) {
            proposed += result.proposed;
            insertedCases.addAll(result.insertedCases);
            advancedCases.addAll(result.advancedCases);
            placementsUpdated += result.placementsUpdated;
            kinshipOptionsUpdated += result.kinshipOptionsUpdated;
            entityRowsHealed += result.entityRowsHealed;
            outcomes.putAll(result.outcomes);
        }

        public ApplyResult result() {
            return new ApplyResult(proposed, insertedCases, advancedCases, placementsUpdated, kinshipOptionsUpdated,
                    entityRowsHealed, outcomes);
        }
    }

    /** Updates that changed nothing: stale, duplicate, or already current. */
    public int unchanged() {
        return proposed - insertedCases.size() - advancedCases.size();
    }

    public int entityRowsUpdated() {
        return placementsUpdated + kinshipOptionsUpdated;
    }

    /** How many proposed cases had each outcome; every outcome is a key (zero when none). */
    public Map<Outcome, Integer> outcomeCounts() {
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, 0);
        }
        outcomes.values().forEach(outcome -> counts.merge(outcome, 1, Integer::sum));
        return counts;
    }
}
