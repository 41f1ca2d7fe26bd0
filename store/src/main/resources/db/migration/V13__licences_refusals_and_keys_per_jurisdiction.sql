-- Decision 41: licence numbers, refusal records and Idempotency-Keys, each per jurisdiction.

-- A licence number is unique within its jurisdiction whatever its letter case and surrounding spaces: GA-77, ga-77
-- and ' GA-77 ' name one licence. The text stays as it was written, for display; the index compares the normalised
-- form. Homes that already collide under it are not merged, renamed or deleted here: the migration stops, naming
-- them, and changes nothing until an operator has renamed all but one of each group. The table is locked against
-- writes first (a bounded wait), so no home can be written between the check and the index. Letter case is folded
-- in the C collation, ASCII letters only, so the rule is the same whatever the database's locale (decision 41).
SET LOCAL lock_timeout = '30s';
LOCK TABLE foster_homes IN SHARE ROW EXCLUSIVE MODE;

DO $$
DECLARE
    collisions text;
BEGIN
    SELECT string_agg(format('jurisdiction %s, licence %s: homes %s', coalesce(jurisdiction, '(none)'),
                             normalised, homes), '; ' ORDER BY jurisdiction, normalised)
      INTO collisions
      FROM (SELECT jurisdiction, upper(btrim(license_number) COLLATE "C") AS normalised,
                   string_agg(id || ' (' || quote_literal(license_number) || ')', ', ' ORDER BY created_at, id) AS homes
              FROM foster_homes
             GROUP BY jurisdiction, upper(btrim(license_number) COLLATE "C")
            HAVING count(*) > 1) AS colliding;
    IF collisions IS NOT NULL THEN
        RAISE EXCEPTION 'foster homes whose licence numbers differ only in letter case or surrounding spaces: %', collisions
            USING HINT = 'Give every home but one of each group its correct licence number, then start the service again; '
                         'nothing was changed (decision 41).';
    END IF;
END $$;

ALTER TABLE foster_homes DROP CONSTRAINT foster_homes_license_number_unique_per_jurisdiction;

CREATE UNIQUE INDEX foster_homes_license_number_unique_per_jurisdiction
    ON foster_homes (jurisdiction, upper(btrim(license_number) COLLATE "C")) NULLS NOT DISTINCT;

COMMENT ON COLUMN foster_homes.license_number IS
    'As written, for display. Unique within the home''s jurisdiction ignoring letter case and surrounding spaces; '
    'another jurisdiction may hold the same number.';

-- Cross-jurisdiction reads (a read of another jurisdiction's record, answered 403) are refusals of the caller's
-- jurisdiction's trail too, under the same budget as the refused writes.
-- The new check only allows more, so no stored row can break it: NOT VALID spares the scan of every partition
-- under the table's exclusive lock.
ALTER TABLE audit_records
    DROP CONSTRAINT audit_records_action_valid,
    ADD CONSTRAINT audit_records_action_valid CHECK (action IN ('create', 'update', 'delete', 'read')) NOT VALID;

COMMENT ON COLUMN audit_records.more_refusals IS
    'On a summary record: how many more refusals of the same subject in the same jurisdiction, in its window, were '
    'not stored one by one.';

-- An Idempotency-Key is the caller's within one jurisdiction: the same subject acting in two jurisdictions has two
-- scopes. A key recorded before takes the jurisdiction of the record it created (a create is always in the caller's
-- jurisdiction), so a retry across this migration still replays; one whose record is gone gets '' and matches no
-- request (it is purged with the others after the retention).
ALTER TABLE idempotency_keys ADD COLUMN caller_jurisdiction text;

WITH created AS (
    SELECT ctid AS row, substring(location FROM '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$')::uuid AS id
      FROM idempotency_keys)
UPDATE idempotency_keys k
   SET caller_jurisdiction = coalesce(
           (SELECT h.jurisdiction FROM foster_homes h WHERE h.id = c.id),
           (SELECT ca.jurisdiction FROM placements p JOIN case_assignments ca ON ca.case_id = p.case_id WHERE p.id = c.id),
           (SELECT ca.jurisdiction FROM kinship_options o JOIN case_assignments ca ON ca.case_id = o.case_id WHERE o.id = c.id),
           '')
  FROM created c
 WHERE k.ctid = c.row;

ALTER TABLE idempotency_keys
    ALTER COLUMN caller_jurisdiction SET NOT NULL,
    DROP CONSTRAINT idempotency_keys_pkey,
    ADD PRIMARY KEY (caller_sub, caller_jurisdiction, endpoint, idempotency_key);

COMMENT ON TABLE idempotency_keys IS
    'Recorded responses of creates sent with an Idempotency-Key, per caller, caller''s jurisdiction and endpoint '
    '(method and path template); purged after api.idempotency.retention.';
