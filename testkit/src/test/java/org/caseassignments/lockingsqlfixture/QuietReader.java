package org.caseassignments.lockingsqlfixture;

/** What the rule lets be: reads, prose that names a lock, a shadow's own table, and SQL in an annotation's text. */
public class QuietReader {

    static final String READ = "SELECT 1 FROM placements WHERE id = ?";

    static final String PROSE = "the case rows held FOR SHARE first";

    static final String SHADOW = "UPDATE case_assignments_rebuild SET jurisdiction = NULL";

    @Deprecated(since = "UPDATE placements SET status = 'ENDED'")
    String read() {
        return READ + PROSE + SHADOW;
    }
}
