-- The foster-home gate's SQL benchmark (BENCHMARKS.md, "Foster-home gate"), on a migrated database: 8 clients,
-- each with an ACTIVE placement in its home 3 and a home 4 to move to, in the gated table and in a twin
-- without the trigger (same columns and indexes; no trigger, no foreign key).
CREATE TABLE placements_plain (LIKE placements INCLUDING ALL);
INSERT INTO foster_homes (id, name, license_number, license_status, admin_unit, capacity, jurisdiction)
SELECT ('00000000-0000-0000-' || lpad(side::text, 4, '0') || '-' || lpad(c::text, 12, '0'))::uuid, 'Home',
       'LIC-' || side || '-' || c, 'ACTIVE', 'u1', 1, 'georgia'
  FROM generate_series(1, 8) c, generate_series(3, 4) side;
INSERT INTO placements (id, case_id, status, foster_home_id, created_by)
SELECT ('00000000-0000-0000-0000-' || lpad(c::text, 12, '0'))::uuid, gen_random_uuid(), 'ACTIVE',
       ('00000000-0000-0000-0003-' || lpad(c::text, 12, '0'))::uuid, 'bench'
  FROM generate_series(1, 8) c;
INSERT INTO placements_plain SELECT * FROM placements;
