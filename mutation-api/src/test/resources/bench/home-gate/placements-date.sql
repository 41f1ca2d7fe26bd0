\set row :client_id + 1
BEGIN;
SELECT id FROM placements WHERE id = ('00000000-0000-0000-0000-' || lpad(:row::text, 12, '0'))::uuid FOR NO KEY UPDATE;
UPDATE placements SET status = status, foster_home_id = foster_home_id, row_version = row_version + 1, start_date = CASE WHEN start_date = date '2026-01-01' THEN date '2026-01-02' ELSE date '2026-01-01' END WHERE id = ('00000000-0000-0000-0000-' || lpad(:row::text, 12, '0'))::uuid RETURNING id, status, foster_home_id, row_version;
COMMIT;
