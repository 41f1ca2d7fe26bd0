package org.caseassignments.lockingsqlfixture;

/** What the rule exists to refuse: a class outside store with SQL that writes and locks; FOR UPDATE in a comment. */
public class RogueWriter {

    // INSERT INTO case_assignments in a line comment
    static final String TOUCH = """
            UPDATE placements SET status = 'ENDED' WHERE id = ?
            """;

    static final String SWAP = "ALTER TABLE case_assignments_rebuild RENAME TO case_assignments";

    static final String PURGE = "DELETE FROM %s WHERE case_id = ?";

    /** Two entries of the constant pool each, between the strings. */
    static final long WIDE = 1L << 40;
    static final double WIDER = 2.5;

    String hold(String table) {
        return "SELECT 1 FROM " + table + " WHERE id = ? FOR NO KEY UPDATE";
    }
}
