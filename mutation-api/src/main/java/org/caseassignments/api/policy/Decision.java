package org.caseassignments.api.policy;

/**
 * One evaluation's outcome.
 *
 * @param rulesetVersion null when no ruleset serves the jurisdiction
 * @param reason         the allowing rule's id, or why it denied
 * @param overBudget     denied because a condition exceeded its evaluation budget
 * @param ruleId         the allowing rule's id; null for a denial
 */
public record Decision(boolean allowed, String jurisdiction, String rulesetVersion, String reason, boolean overBudget,
                       String ruleId) {

    /**
     * Whether a ruleset decided. When none did, the record was another jurisdiction's (or of none): its
     * fields are not the caller's to see, not even in their own jurisdiction's audit trail.
     */
    public boolean rulesetRan() {
        return rulesetVersion != null;
    }

    /** Denied because a rule failed to evaluate (an error, or not a bool): neither over budget nor no rule allowing. */
    boolean ruleFailed() {
        return !allowed && rulesetRan() && !overBudget && !Ruleset.NO_RULE_ALLOWS.equals(reason);
    }

    static Decision allow(Ruleset ruleset, String ruleId) {
        return new Decision(true, ruleset.jurisdiction(), ruleset.version(), "rule " + ruleId, false, ruleId);
    }

    static Decision deny(Ruleset ruleset, String reason) {
        return new Decision(false, ruleset.jurisdiction(), ruleset.version(), reason, false, null);
    }

    static Decision overBudget(Ruleset ruleset, String reason) {
        return new Decision(false, ruleset.jurisdiction(), ruleset.version(), reason, true, null);
    }

    /** Refused before any ruleset ran: the record is another jurisdiction's, or its jurisdiction is unknown. */
    static Decision otherJurisdiction(String callerJurisdiction, String resourceJurisdiction) {
        return new Decision(false, callerJurisdiction, null, resourceJurisdiction == null
                ? "the record's jurisdiction is unknown" : "the record belongs to jurisdiction " + resourceJurisdiction,
                false, null);
    }

    static Decision noRuleset(String jurisdiction) {
        return new Decision(false, jurisdiction, null, "no ruleset serves this jurisdiction", false, null);
    }
}
