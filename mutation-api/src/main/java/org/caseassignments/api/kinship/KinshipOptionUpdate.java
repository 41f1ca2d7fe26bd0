package org.caseassignments.api.kinship;

import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.write.Locked;
import org.caseassignments.api.write.ResourceUpdate;

/**
 * One update or soft delete of a kinship option, as the shared update path runs it. Both read only
 * live rows and both pass the staleness gate; they differ in what they change.
 */
abstract class KinshipOptionUpdate implements ResourceUpdate<KinshipOption> {

    final KinshipOptions options;
    final UUID id;

    KinshipOptionUpdate(KinshipOptions options, UUID id) {
        this.options = options;
        this.id = id;
    }

    static KinshipOptionUpdate update(KinshipOptions options, UUID id, UpdateKinshipOptionRequest change) {
        return new KinshipOptionUpdate(options, id) {
            @Override
            public KinshipOption afterImage(KinshipOption row) {
                return row.with(change);
            }

            @Override
            public KinshipOption write(Locked<KinshipOption> locked) {
                return options.update(locked.held(), locked.row().with(change));
            }
        };
    }

    /** Changes only {@code active} and {@code deleted_at}, which no rule can see: one evaluation. */
    static KinshipOptionUpdate delete(KinshipOptions options, UUID id) {
        return new KinshipOptionUpdate(options, id) {
            @Override
            public KinshipOption afterImage(KinshipOption row) {
                return row;
            }

            @Override
            public boolean deletes() {
                return true;
            }

            /** The after-image shows no change because a live row has no {@code active} field; deleting it is one. */
            @Override
            public boolean changes(KinshipOption locked) {
                return true;
            }

            @Override
            public KinshipOption write(Locked<KinshipOption> locked) {
                return options.softDelete(locked.held(), locked.row());
            }
        };
    }

    @Override
    public String describe() {
        return "Kinship option " + id;
    }

    @Override
    public ApiProblem notFound() {
        return new ApiProblem(ProblemCode.NOT_FOUND, describe() + " does not exist or was deleted");
    }

    @Override
    public Optional<KinshipOption> preRead() {
        return options.find(id);
    }

    @Override
    public Optional<Locked<KinshipOption>> lockedRead() {
        return options.findForNoKeyUpdate(id);
    }

    @Override
    public ResourceRef resourceOf(KinshipOption row) {
        return row.resource();
    }

    /** Kinship options have no state machine; {@code approved} may be set and cleared. */
    @Override
    public void validate(KinshipOption locked) {
    }
}
