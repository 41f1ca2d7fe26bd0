package org.caseassignments.api.write;

import java.util.Set;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;

/** State-machine checks: staying in the same state is no transition; any other move must be listed. */
public final class Transitions {

    private Transitions() {
    }

    /**
     * @param allowed the states {@code from} may move to
     * @throws ApiProblem 409 {@code INVALID_TRANSITION} for a move not in {@code allowed}
     */
    public static <S extends Enum<S>> void require(String what, S from, S to, Set<S> allowed) {
        if (to == null || to == from || allowed.contains(to)) {
            return;
        }
        throw new ApiProblem(ProblemCode.INVALID_TRANSITION, what + " cannot move from " + from + " to " + to
                + (allowed.isEmpty() ? "; " + from + " is final" : "; from " + from + " it may move to " + allowed));
    }
}
