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
