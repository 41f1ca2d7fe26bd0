package org.caseassignments.backfill.occupancy;

/**
 * The kinds of row the foster-home gate would refuse today, each with the query that finds them. Every query returns
 * one row per finding, its {@code line} the ids and facts an operator acts on, in a stable order.
 */
enum Finding {

    HOME_OVER_CAPACITY("homes over capacity", "home-over-capacity", true, """
            SELECT 'home=' || h.id || ' active=' || count(*) || ' capacity=' || h.capacity AS line
              FROM foster_homes h JOIN placements p ON p.foster_home_id = h.id AND p.status = 'ACTIVE'
             WHERE h.capacity IS NOT NULL
             GROUP BY h.id HAVING count(*) > h.capacity
             ORDER BY h.id
            """),

    ACTIVE_WITHOUT_HOME("ACTIVE without a home", "active-without-home", true, """
            SELECT 'placement=' || p.id || ' case=' || p.case_id AS line
              FROM placements p
             WHERE p.status = 'ACTIVE' AND p.foster_home_id IS NULL
             ORDER BY p.id
            """),

    /** The licence's own status is {@code ACTIVE}; PENDING, SUSPENDED and REVOKED homes take no ACTIVE placement. */
    ACTIVE_IN_UNLICENSED_HOME("ACTIVE in an unlicensed home", "active-in-unlicensed-home", true, """
            SELECT 'placement=' || p.id || ' case=' || p.case_id || ' home=' || h.id
                   || ' license_status=' || h.license_status AS line
              FROM placements p JOIN foster_homes h ON h.id = p.foster_home_id
             WHERE p.status = 'ACTIVE' AND h.license_status <> 'ACTIVE'
             ORDER BY p.id
            """),

    /**
     * The case's jurisdiction known and the home's another or unknown (a case that moved leaves its ACTIVE placements
     * where the child is: decision 43). A case of unknown jurisdiction is not compared, as the gate does not compare it.
     */
    ACTIVE_IN_FOREIGN_HOME("ACTIVE in a foreign home", "active-in-foreign-home", true, inForeignHome("ACTIVE")),

    /**
     * An ACTIVE placement in a home from before homes carried a jurisdiction: nobody's staff can list or move the child.
     * One line per placement, with its case's jurisdiction, the one the home's is to be set to.
     */
    HOME_OF_UNKNOWN_JURISDICTION("ACTIVE in a home of unknown jurisdiction", "home-of-unknown-jurisdiction", true, """
            SELECT 'home=' || h.id || ' placement=' || p.id || ' case=' || p.case_id
                   || ' case_jurisdiction=' || coalesce(c.jurisdiction, 'unknown') AS line
              FROM placements p JOIN foster_homes h ON h.id = p.foster_home_id
                                LEFT JOIN case_assignments c ON c.case_id = p.case_id
             WHERE p.status = 'ACTIVE' AND h.jurisdiction IS NULL
             ORDER BY h.id, p.id
            """),

    /** Allowed (decision 43: they stay, and cannot be activated there), listed for the new jurisdiction's staff. */
    PROPOSED_IN_FOREIGN_HOME("PROPOSED in a foreign home", "proposed-in-foreign-home", false, inForeignHome("PROPOSED"));

    final String label;
    final String key;
    /** Whether a row of this kind breaks a rule (exit 1), rather than being work to do. */
    final boolean breaksARule;
    /** How many rows of this kind, counted by the database. */
    final String count;
    /** The first {@code ?} rows' lines, in the stable order. */
    final String list;

    Finding(String label, String key, boolean breaksARule, String sql) {
        this.label = label;
        this.key = key;
        this.breaksARule = breaksARule;
        this.count = "SELECT count(*) FROM (" + sql + ") AS finding";
        this.list = sql + " LIMIT ?";
    }

    private static String inForeignHome(String status) {
        return """
                SELECT 'placement=' || p.id || ' case=' || p.case_id || ' home=' || h.id
                       || ' case_jurisdiction=' || c.jurisdiction
                       || ' home_jurisdiction=' || coalesce(h.jurisdiction, 'unknown') AS line
                  FROM placements p JOIN foster_homes h ON h.id = p.foster_home_id
                                    JOIN case_assignments c ON c.case_id = p.case_id
                 WHERE p.status = '%s' AND h.jurisdiction IS DISTINCT FROM c.jurisdiction AND c.jurisdiction IS NOT NULL
                 ORDER BY p.id
                """.formatted(status);
    }
}
