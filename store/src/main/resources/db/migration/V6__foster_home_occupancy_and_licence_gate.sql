-- The foster-home occupancy and licence gate (decision 22), enforced by the database in the write's own
-- transaction, whichever path writes: no home holds more ACTIVE placements than its capacity (NULL: no limit),
-- no placement becomes ACTIVE in a home whose licence is not ACTIVE, none is created in or moved to a SUSPENDED
-- or REVOKED home. Refusals carry their own SQLSTATEs (store's HomeGate), never a generic one.
--
-- Lock order (store's LockOrder): case projection row, then the placement, then the foster home. The placement
-- trigger runs under the placement's row lock and locks at most one home, the destination, FOR UPDATE; a home's
-- own UPDATE holds that row and only counts placements. Suspending or revoking a home with ACTIVE placements is
-- allowed: the licence must say what is true, and a refused revocation would keep the home open to activations.

-- What the gate counts: ACTIVE placements per home.
CREATE INDEX placements_active_by_home ON placements (foster_home_id) WHERE status = 'ACTIVE';

CREATE FUNCTION placements_home_gate() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    enters  boolean := NEW.status = 'ACTIVE'
                       AND (TG_OP = 'INSERT' OR OLD.status <> 'ACTIVE' OR OLD.foster_home_id IS DISTINCT FROM NEW.foster_home_id);
    arrives boolean := TG_OP = 'INSERT' OR OLD.foster_home_id IS DISTINCT FROM NEW.foster_home_id;
    licence text;
    places  integer;
    taken   integer;
BEGIN
    IF NEW.foster_home_id IS NULL OR NOT (enters OR arrives) THEN
        RETURN NEW;
    END IF;
    IF enters THEN
        -- a separate statement from the write's own re-read: every activation into this home waits here for
        -- the one before it, and for an update of the home, so the count below is of committed rows
        SELECT license_status, capacity INTO licence, places FROM foster_homes WHERE id = NEW.foster_home_id FOR UPDATE;
    ELSE
        -- a PROPOSED placement names the home without occupying it: no lock, so its key check never waits
        SELECT license_status, capacity INTO licence, places FROM foster_homes WHERE id = NEW.foster_home_id;
    END IF;
    IF NOT FOUND THEN
        RETURN NEW; -- the foreign key refuses it
    END IF;
    IF licence IN ('SUSPENDED', 'REVOKED') OR (enters AND licence <> 'ACTIVE') THEN
        RAISE EXCEPTION USING ERRCODE = 'CAH02', CONSTRAINT = 'placements_home_licensed',
            MESSAGE = format('Foster home %s has a %s license; a placement can be %s only in a home with an ACTIVE license',
                             NEW.foster_home_id, licence, CASE WHEN enters THEN 'ACTIVE' ELSE 'proposed' END);
    END IF;
    IF enters AND places IS NOT NULL THEN
        SELECT count(*) INTO taken FROM placements
         WHERE foster_home_id = NEW.foster_home_id AND status = 'ACTIVE' AND id <> NEW.id;
        IF taken >= places THEN
            RAISE EXCEPTION USING ERRCODE = 'CAH01', CONSTRAINT = 'placements_home_capacity',
                MESSAGE = format('Foster home %s is at capacity: %s ACTIVE placement(s), capacity %s',
                                 NEW.foster_home_id, taken, places);
        END IF;
    END IF;
    RETURN NEW;
END
$$;

-- Only the columns that move a placement into a home or into ACTIVE: the projector's copy of the assignment
-- changes neither, so it never fires this trigger and never reaches a home's lock.
CREATE TRIGGER placements_home_gate
    BEFORE INSERT OR UPDATE OF status, foster_home_id ON placements
    FOR EACH ROW EXECUTE FUNCTION placements_home_gate();

CREATE FUNCTION foster_homes_capacity_gate() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    taken integer;
BEGIN
    IF NEW.capacity IS NULL OR (OLD.capacity IS NOT NULL AND NEW.capacity >= OLD.capacity) THEN
        RETURN NEW; -- unlimited, or not lowered
    END IF;
    -- the UPDATE holds this home's row, which every activation into it must lock FOR UPDATE first
    SELECT count(*) INTO taken FROM placements WHERE foster_home_id = NEW.id AND status = 'ACTIVE';
    IF taken > NEW.capacity THEN
        RAISE EXCEPTION USING ERRCODE = 'CAH03', CONSTRAINT = 'foster_homes_capacity_covers_occupancy',
            MESSAGE = format('Foster home %s has %s ACTIVE placement(s); its capacity cannot go below that (asked: %s)',
                             NEW.id, taken, NEW.capacity);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER foster_homes_capacity_gate
    BEFORE UPDATE OF capacity ON foster_homes
    FOR EACH ROW EXECUTE FUNCTION foster_homes_capacity_gate();

-- The audit record of a write names the home it concerns (a placement's home after the write, or the home
-- itself) and that home's ACTIVE placements counted in the write's transaction, after the write.
ALTER TABLE audit_records
    ADD COLUMN foster_home_id uuid NULL,
    ADD COLUMN home_occupancy integer NULL;

COMMENT ON COLUMN audit_records.home_occupancy IS
    'ACTIVE placements in foster_home_id, counted in the write''s transaction after the write (for an activation, '
    'under the home''s lock). Null for refusals and for writes that concern no home.';
