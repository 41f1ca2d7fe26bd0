\set row :client_id + 1
BEGIN;
SELECT id FROM placements WHERE id = ('00000000-0000-0000-0000-' || lpad(:row::text, 12, '0'))::uuid FOR NO KEY UPDATE;
UPDATE placements SET status = status, row_version = row_version + 1, foster_home_id = CASE WHEN foster_home_id = ('00000000-0000-0000-0003-' || lpad(:row::text, 12, '0'))::uuid THEN ('00000000-0000-0000-0004-' || lpad(:row::text, 12, '0'))::uuid ELSE ('00000000-0000-0000-0003-' || lpad(:row::text, 12, '0'))::uuid END WHERE id = ('00000000-0000-0000-0000-' || lpad(:row::text, 12, '0'))::uuid RETURNING id, status, foster_home_id, row_version;
COMMIT;
