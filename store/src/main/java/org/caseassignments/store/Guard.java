package org.caseassignments.store;

/**
 * The never-rewind rules. Each is the {@code WHERE} clause of the projection upsert's
 * {@code ON CONFLICT … DO UPDATE}; a stored placeholder (revision −1) loses to every one of them.
 */
public enum Guard {

    /**
     * {@code case.assignment_changed}: strictly greater revision only; equal or lower matches nothing.
     * {@code case.created} is this guard at revision 0: over a stored row it applies iff the stored
     * revision is negative (a placeholder), and otherwise does nothing.
     */
    STRICTLY_NEWER("case_assignments.assignment_revision < EXCLUDED.assignment_revision"),

    /**
     * Backfill from the case service's snapshot, the source of truth for the revision it holds:
     * newer wins, and at an equal revision the values converge to the snapshot's (a jurisdiction only when the
     * row carries one, which is how a backfill fills in the jurisdiction of cases projected before it was known).
     */
    NEWER_OR_CONVERGE("""
            case_assignments.assignment_revision < EXCLUDED.assignment_revision
               OR (case_assignments.assignment_revision = EXCLUDED.assignment_revision
                   AND ((case_assignments.assigned_worker_sub, case_assignments.supervisor_sub)
                           IS DISTINCT FROM (EXCLUDED.assigned_worker_sub, EXCLUDED.supervisor_sub)
                        OR (EXCLUDED.jurisdiction IS NOT NULL
                            AND EXCLUDED.jurisdiction IS DISTINCT FROM case_assignments.jurisdiction)))""");

    final String condition;

    Guard(String condition) {
        this.condition = condition;
    }
}
