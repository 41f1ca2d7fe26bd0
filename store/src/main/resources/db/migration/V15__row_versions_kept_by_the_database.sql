-- The version behind every ETag (decision 44) is kept by the database: each UPDATE of a placement, a kinship option
-- or a foster home makes the row's version its previous one plus one, whoever writes it — the API, the projector's
-- and the repair's copy of an assignment, an operator in psql (docs/backfill.md). A write that says nothing of the
-- version still turns the tags clients hold into 412s, and no write can move it twice or back.
--
-- The new version is the old one plus one whatever the statement set: a writer that still names
-- row_version = row_version + 1 (an instance of the previous release during an upgrade) moves it by one, as before.
-- The API's optimistic check (WHERE row_version = ?) reads the old version, and RETURNING the new one.
--
-- With triggers disabled (session_replication_role = replica, as pg_restore --disable-triggers sets) these do not
-- run: an UPDATE made so must set row_version = row_version + 1 itself (docs/operations.md).
-- Locks: a BEFORE UPDATE row trigger makes PostgreSQL lock the row by the key columns the statement's SET names;
-- no writer names a key column of these tables (their ids; foster_homes had such a trigger already, decision 43),
-- so every write keeps FOR NO KEY UPDATE, which a placement insert's foreign-key check passes.

CREATE FUNCTION row_version_follows_every_update() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    NEW.row_version := OLD.row_version + 1;
    RETURN NEW;
END
$$;

CREATE TRIGGER placements_row_version
    BEFORE UPDATE ON placements
    FOR EACH ROW EXECUTE FUNCTION row_version_follows_every_update();

CREATE TRIGGER kinship_options_row_version
    BEFORE UPDATE ON kinship_options
    FOR EACH ROW EXECUTE FUNCTION row_version_follows_every_update();

CREATE TRIGGER foster_homes_row_version
    BEFORE UPDATE ON foster_homes
    FOR EACH ROW EXECUTE FUNCTION row_version_follows_every_update();

COMMENT ON COLUMN foster_homes.row_version IS
    'Optimistic-concurrency version, moved by one on every UPDATE by the trigger foster_homes_row_version; with the '
    'home''s ACTIVE placements when there are any, what its strong ETag names (decision 44).';
COMMENT ON COLUMN placements.row_version IS
    'Optimistic-concurrency version, moved by one on every UPDATE by the trigger placements_row_version; with its '
    'case''s assignment while the row''s copy differs from it, what its strong ETag names (decision 44).';
COMMENT ON COLUMN kinship_options.row_version IS
    'Optimistic-concurrency version, moved by one on every UPDATE by the trigger kinship_options_row_version; with '
    'its case''s assignment while the row''s copy differs from it, what its strong ETag names (decision 44).';
