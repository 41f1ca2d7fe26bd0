package org.caseassignments.store;

import java.util.Objects;
import java.util.UUID;

/**
 * One candidate assignment of a case, from an event or a snapshot row.
 *
 * @param guard        which never-rewind rule decides whether it applies
 * @param jurisdiction the case's jurisdiction as the event or row carries it; null when it carries none,
 *                     which keeps the stored one (an update never clears a known jurisdiction)
 * @param traceId      the W3C trace id of the event's {@code traceparent} header; null when it carried no valid one.
 *                     Stored with the assignment only when this update's revision is applied (decision 34)
 */
public record AssignmentUpdate(UUID caseId, String assignedWorkerSub, String supervisorSub, long revision,
                               Guard guard, String jurisdiction, String traceId) {

    /** The field of a log line (the logging MDC key) that holds the trace id of the event it is about (decision 34). */
    public static final String TRACE_ID_LOG_FIELD = "trace_id";

    public AssignmentUpdate {
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(guard, "guard");
        if (revision < 0) {
            throw new IllegalArgumentException("assignment revision must be >= 0, was " + revision + " for case " + caseId);
        }
    }

    /** The same update carrying the case's jurisdiction (null: none known). */
    public AssignmentUpdate withJurisdiction(String jurisdiction) {
        return new AssignmentUpdate(caseId, assignedWorkerSub, supervisorSub, revision, guard, jurisdiction, traceId);
    }

    /** The same update carrying its event's trace id (null: none). */
    public AssignmentUpdate withTraceId(String traceId) {
        return new AssignmentUpdate(caseId, assignedWorkerSub, supervisorSub, revision, guard, jurisdiction, traceId);
    }

    /**
     * {@code case.created}: seeds revision 0 over an absent row or a placeholder, and nothing else —
     * which is exactly the strictly-newer guard at revision 0, so both event types share one statement.
     */
    public static AssignmentUpdate created(UUID caseId, String worker, String supervisor) {
        return new AssignmentUpdate(caseId, worker, supervisor, 0, Guard.STRICTLY_NEWER, null, null);
    }

    /** {@code case.assignment_changed}: applies iff its revision is strictly greater than the stored one. */
    public static AssignmentUpdate changed(UUID caseId, String worker, String supervisor, long revision) {
        return new AssignmentUpdate(caseId, worker, supervisor, revision, Guard.STRICTLY_NEWER, null, null);
    }

    /** A snapshot row: applies when newer, and converges the values at an equal revision. */
    public static AssignmentUpdate snapshot(UUID caseId, String worker, String supervisor, long revision) {
        return new AssignmentUpdate(caseId, worker, supervisor, revision, Guard.NEWER_OR_CONVERGE, null, null);
    }
}
