package org.caseassignments.store;

import java.util.List;
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
 */
public record ApplyResult(int proposed, List<UUID> insertedCases, List<UUID> advancedCases,
                          int placementsUpdated, int kinshipOptionsUpdated, int entityRowsHealed) {

    /** Updates that changed nothing: stale, duplicate, or already current. */
    public int unchanged() {
        return proposed - insertedCases.size() - advancedCases.size();
    }

    public int entityRowsUpdated() {
        return placementsUpdated + kinshipOptionsUpdated;
    }
}
