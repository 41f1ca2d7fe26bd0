package org.caseassignments.api.assignment;

import java.time.Duration;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;

/**
 * What a waited read ({@code min_revision}, {@code wait}) does before it can be answered (decision 39): read the case,
 * authorize the caller against it, and, when it is behind, admit the wait within the caps. Done once per request,
 * by {@link WaitedReadFilter} before Spring MVC for a plain waited read — so that its refusals are answered at once
 * and cheaply — or by the controller, which takes over what the filter began.
 */
@Component
class WaitedReads {

    private static final String BEGUN = WaitedReads.class.getName() + ".begun";

    /**
     * A waited read begun: the projection as read first, and its admitted wait; no wait when that read already
     * reached the revision, or the caller asked for none ({@code wait=PT0S}).
     */
    record Begun(UUID caseId, long wanted, Duration patience, ProjectedAssignment before,
                 ProjectionWaits.Wait admitted) {

        boolean reached() {
            return before.known() && before.revision() >= wanted;
        }

        /** Gives the admitted wait's place back, if any. */
        void release() {
            if (admitted != null) {
                admitted.release().run();
            }
        }
    }

    private final CaseAssignments assignments;
    private final PolicyEngine policy;
    private final ProjectionWaits waits;

    WaitedReads(CaseAssignments assignments, PolicyEngine policy, ProjectionWaits waits) {
        this.assignments = assignments;
        this.policy = policy;
        this.waits = waits;
    }

    /**
     * Reads the case and authorizes the read before any wait: a case the caller may not read is refused at once
     * ({@code PolicyDenied}, 403), not after the wait. A case behind, or one the projection does not know, is admitted
     * to wait within the caps.
     *
     * @throws TooManyWaiters   429 past the waiters' caps
     * @throws ProjectionBehind 409 at once for an unknown case past the caller's allowance
     */
    Begun begin(Caller caller, UUID caseId, long wanted, Duration patience) {
        ProjectedAssignment now = assignments.read(caseId);
        if (now.known()) {
            policy.require(caller, Action.READ, now.resource());
            if (now.revision() >= wanted) {
                return new Begun(caseId, wanted, patience, now, null);
            }
        }
        if (patience.isZero()) {
            return new Begun(caseId, wanted, patience, now, null);
        }
        return new Begun(caseId, wanted, patience, now, waits.await(caseId, wanted, patience,
                WaiterAdmission.Holder.of(caller), !now.known()));
    }

    /** Hands what {@link #begin} did for this request on to its handler. */
    static void handOn(HttpServletRequest request, Begun begun) {
        request.setAttribute(BEGUN, begun);
    }

    /**
     * Gives back the wait handed on to this request's handler when the handler never took it over (it failed or
     * answered before {@link #begunOrBegin}); nothing once it has.
     */
    static void releaseNotTakenOver(HttpServletRequest request) {
        if (request.getAttribute(BEGUN) instanceof Begun begun) {
            request.removeAttribute(BEGUN);
            begun.release();
        }
    }

    /**
     * The waited read this request began before its handler, else {@link #begin} now.
     *
     * @throws IllegalStateException when what was begun is for another case, revision or wait than the handler's:
     *                               a defect of the filter's reading of the request; the wait begun is given back
     */
    Begun begunOrBegin(HttpServletRequest request, Caller caller, UUID caseId, long wanted, Duration patience) {
        if (!(request.getAttribute(BEGUN) instanceof Begun begun)) {
            return begin(caller, caseId, wanted, patience);
        }
        request.removeAttribute(BEGUN);
        if (!begun.caseId().equals(caseId) || begun.wanted() != wanted || !begun.patience().equals(patience)) {
            begun.release();
            throw new IllegalStateException("The waited read begun before the handler (case " + begun.caseId()
                    + ", revision " + begun.wanted() + ", wait " + begun.patience() + ") is not the handler's (case "
                    + caseId + ", revision " + wanted + ", wait " + patience + ")");
        }
        return begun;
    }
}
