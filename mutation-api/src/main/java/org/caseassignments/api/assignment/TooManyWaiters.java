package org.caseassignments.api.assignment;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;

/**
 * 429 {@code TOO_MANY_WAITERS}: a request that would wait for the projection was refused at once, because this
 * instance already holds as many waiting requests as it allows, in all or for this caller (decision 39). Nothing was
 * read for it or written; the same request may be sent again after {@code Retry-After}, or without a wait.
 */
final class TooManyWaiters extends ApiProblem {

    /** About one recheck interval: by then most waits have ended one way or the other. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    TooManyWaiters(WaiterAdmission.Refusal refusal) {
        super(ProblemCode.TOO_MANY_WAITERS, (refusal == WaiterAdmission.Refusal.GLOBAL
                        ? "This instance holds as many requests waiting for the projection as it allows"
                        : "You hold as many requests waiting for the projection as one caller may")
                        + "; retry later, or ask without waiting", List.of(), Map.of(), RETRY_AFTER);
    }
}
