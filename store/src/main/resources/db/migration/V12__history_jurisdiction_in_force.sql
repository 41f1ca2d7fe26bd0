-- Each history entry belongs to the jurisdiction in force at its revision (decision 40): the jurisdiction the entry's
-- event carried, or else that of the nearest lower revision of the case that carried one, as the projection carries a
-- jurisdiction forward over events that carry none (decision 26). The mutation API shows an entry only to callers of
-- that jurisdiction; an entry with none known (no revision at or below it carried one) is shown to nobody.
-- The guarded writer stores it with every entry and carries a late lower revision's jurisdiction up to the entries
-- above it; this migration gives it to the entries recorded before.

ALTER TABLE case_assignment_history ADD COLUMN jurisdiction_in_force text NULL;

-- The rule itself, entry by entry: the jurisdiction of the highest revision at or below the entry that carried one.
UPDATE case_assignment_history h
   SET jurisdiction_in_force = (SELECT carrier.jurisdiction
                                  FROM case_assignment_history carrier
                                 WHERE carrier.case_id = h.case_id
                                   AND carrier.assignment_revision <= h.assignment_revision
                                   AND carrier.jurisdiction IS NOT NULL
                                 ORDER BY carrier.assignment_revision DESC
                                 LIMIT 1);

COMMENT ON COLUMN case_assignment_history.jurisdiction IS
    'The jurisdiction the event carried; null when it carried none. See jurisdiction_in_force for whose entry it is.';
COMMENT ON COLUMN case_assignment_history.jurisdiction_in_force IS
    'The jurisdiction in force at this revision: the one the entry carried, or that of the nearest lower revision '
    'that carried one; null when none is known. Only callers of this jurisdiction read the entry (decision 40).';
