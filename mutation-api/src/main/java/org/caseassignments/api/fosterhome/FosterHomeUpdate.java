package org.caseassignments.api.fosterhome;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.write.Locked;
import org.caseassignments.api.write.Transitions;
import org.caseassignments.api.write.ResourceUpdate;

/** One PATCH of a foster home, as the shared update path runs it. */
class FosterHomeUpdate implements ResourceUpdate<FosterHome> {

    private final FosterHomes homes;
    private final UUID id;
    private final UpdateFosterHomeRequest change;

    FosterHomeUpdate(FosterHomes homes, UUID id, UpdateFosterHomeRequest change) {
        this.homes = homes;
        this.id = id;
        this.change = change;
    }

    @Override
    public String describe() {
        return "Foster home " + id;
    }

    @Override
    public Optional<FosterHome> preRead() {
        return homes.find(id);
    }

    @Override
    public Optional<Locked<FosterHome>> lockedRead() {
        return homes.findForNoKeyUpdate(id).map(Locked::ofNoCase);
    }

    @Override
    public ResourceRef resourceOf(FosterHome row) {
        return row.resource();
    }

    @Override
    public FosterHome afterImage(FosterHome row) {
        return row.with(change);
    }

    @Override
    public void validate(FosterHome locked) {
        Transitions.require(describe() + "'s license", locked.licenseStatus(), locked.with(change).licenseStatus(),
                locked.licenseStatus().next());
    }

    @Override
    public FosterHome write(Locked<FosterHome> locked) {
        return homes.update(locked.row(), locked.row().with(change));
    }
}
