-- Jurisdiction is a property of the data: a case's comes from upstream on its events, a foster home's is
-- the jurisdiction that created it. Placements and kinship options inherit their case's through case_id.
-- NULL means unknown (rows written before this column, events from producers that predate the field);
-- the mutation API refuses every read and write of a record whose jurisdiction is unknown (decision 12).

ALTER TABLE case_assignments
    ADD COLUMN jurisdiction text NULL,
    ADD CONSTRAINT case_assignments_jurisdiction_form CHECK (jurisdiction ~ '^[a-z][a-z0-9_-]{0,62}$');

COMMENT ON COLUMN case_assignments.jurisdiction IS
    'Jurisdiction that owns the case, from case.created / case.assignment_changed; taken with the revision that '
    'carries it, never cleared by an event without it. NULL: unknown, so the mutation API refuses the case''s records.';

ALTER TABLE foster_homes
    ADD COLUMN jurisdiction text NULL,
    ADD CONSTRAINT foster_homes_jurisdiction_form CHECK (jurisdiction ~ '^[a-z][a-z0-9_-]{0,62}$');

COMMENT ON COLUMN foster_homes.jurisdiction IS
    'Jurisdiction that created the home; only callers of that jurisdiction read or change it. NULL: a home created '
    'before this column, refused to everyone until an operator sets it (decision 12).';
