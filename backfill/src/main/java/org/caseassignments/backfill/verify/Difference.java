package org.caseassignments.backfill.verify;

/** How a case in the projection differs from its snapshot row. */
enum Difference {

    /** No projection row, or only a placeholder (revision −1). */
    MISSING("missing"),
    /** The projection holds a lower revision than the snapshot. */
    BEHIND("behind"),
    /** The projection holds a higher revision (events the snapshot predates). */
    AHEAD("ahead"),
    /** Same revision, another pair: the snapshot is the truth at that revision; a backfill converges it. */
    DIVERGING("diverging at equal revision");

    final String label;

    Difference(String label) {
        this.label = label;
    }
}
