-- A license number belongs to its jurisdiction (the licensing authority is the jurisdiction's): unique per
-- jurisdiction, not across the service. A global key let one jurisdiction's create learn that another holds
-- a number (409), and hold a number another jurisdiction would issue. NULLS NOT DISTINCT keeps homes of no
-- known jurisdiction (created before homes carried one) unique among themselves, as they were.

ALTER TABLE foster_homes
    DROP CONSTRAINT foster_homes_license_number_unique,
    ADD CONSTRAINT foster_homes_license_number_unique_per_jurisdiction
        UNIQUE NULLS NOT DISTINCT (jurisdiction, license_number);

COMMENT ON COLUMN foster_homes.license_number IS
    'Unique within the home''s jurisdiction; another jurisdiction may hold the same number.';

-- Refusal records are budgeted per subject (docs/audit.md): past the budget a subject's refusals are counted,
-- not stored one by one, and one refusal record per window says how many more there were.
ALTER TABLE audit_records
    ADD COLUMN more_refusals integer NULL,
    ADD CONSTRAINT audit_records_more_refusals_summarise_refusals
        CHECK (more_refusals IS NULL OR (outcome = 'REFUSED' AND more_refusals > 0));

COMMENT ON COLUMN audit_records.more_refusals IS
    'On a summary record: how many more refusals of the same subject in its window were not stored one by one.';
