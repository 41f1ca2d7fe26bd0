package org.caseassignments.api.placement;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.write.Locked;
import org.caseassignments.api.write.Transitions;
import org.caseassignments.api.write.ResourceUpdate;

/** One PATCH of a placement, as the shared update path runs it. */
class PlacementUpdate implements ResourceUpdate<Placement> {

    private final Placements placements;
    private final UUID id;
    private final UpdatePlacementRequest change;

    PlacementUpdate(Placements placements, UUID id, UpdatePlacementRequest change) {
        this.placements = placements;
        this.id = id;
        this.change = change;
    }

    @Override
    public String describe() {
        return "Placement " + id;
    }

    @Override
    public Optional<Placement> preRead() {
        return placements.find(id);
    }

    @Override
    public Optional<Locked<Placement>> lockedRead() {
        return placements.findForNoKeyUpdate(id);
    }

    @Override
    public ResourceRef resourceOf(Placement row) {
        return row.resource();
    }

    @Override
    public Placement afterImage(Placement row) {
        return row.with(change);
    }

    @Override
    public void validate(Placement locked) {
        Placement changed = locked.with(change);
        Transitions.require(describe(), locked.status(), changed.status(), locked.status().next());
        if (change.fosterHomeId() != null && change.fosterHomeId().isPresent()
                && !placements.fosterHomeExists(change.fosterHomeId().get(), locked.jurisdiction())) {
            throw ApiProblem.invalidField("foster_home_id", "no foster home has this id");
        }
        if (changed.startDate() != null && changed.endDate() != null && changed.endDate().isBefore(changed.startDate())) {
            throw ApiProblem.invalidField("end_date", "must not be before start_date (" + changed.startDate() + ")");
        }
    }

    @Override
    public Placement write(Locked<Placement> locked) {
        return placements.update(locked.held(), locked.row().with(change));
    }
}
