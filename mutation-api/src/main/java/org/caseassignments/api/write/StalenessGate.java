package org.caseassignments.api.write;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.caseassignments.api.policy.ResourceField;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.problem.ApiProblem;

/**
 * The comparison that replaces re-running the policy under a row lock (ADR-060 D5): every resource
 * field the decision consumed must hold the same value in the authorized image and in the image of
 * the locked row. Any difference refuses. A pure in-memory comparison: no decision, no I/O.
 */
public final class StalenessGate {

    /**
     * Compared on every update whatever the ruleset reads. The assignment pair is the input a writer
     * other than a request (the projector) changes, so it stays compared even under a ruleset that
     * does not read it (the gate of decision 3). The record's jurisdiction is an input of every decision
     * (decision 12): a case can move to another jurisdiction upstream. A new structural field is one more
     * entry here.
     */
    public static final List<ResourceField> ALWAYS_COMPARED = List.of(
            ResourceField.ASSIGNED_WORKER_SUB,
            ResourceField.SUPERVISOR_SUB,
            ResourceField.JURISDICTION);

    private StalenessGate() {
    }

    /** {@link #ALWAYS_COMPARED} and the fields the deciding ruleset reads. */
    public static Set<ResourceField> compared(Set<ResourceField> readByRuleset) {
        Set<ResourceField> compared = new LinkedHashSet<>(ALWAYS_COMPARED);
        compared.addAll(readByRuleset);
        return compared;
    }

    /**
     * @throws MovedAway when the record's jurisdiction differs: it is another jurisdiction's record now, and what
     *                   changed in it is not the caller's to learn (the empty 403 of any such record)
     * @throws ApiProblem 409 {@code CONCURRENT_MODIFICATION} naming the fields that differ
     */
    public static void refuseIfChanged(Set<ResourceField> compared, ResourceRef authorized, ResourceRef locked,
                                       String what) {
        if (!Objects.equals(authorized.jurisdiction(), locked.jurisdiction())) {
            throw new MovedAway();
        }
        List<String> changed = compared.stream()
                .filter(field -> !Objects.equals(field.valueIn(authorized), field.valueIn(locked)))
                .map(ResourceField::path)
                .sorted()
                .toList();
        if (!changed.isEmpty()) {
            throw ApiProblem.changedSinceAuthorization(what, changed);
        }
    }
}
