-- The placement gate of decision 22, completed (decision 43): an ACTIVE placement is always in a home, an ENDED or
-- CANCELLED one keeps the home it was in, and a placement enters or names only a home of its case's jurisdiction.
-- Each refusal has its own SQLSTATE (store's HomeGate) and a message that names the placement's home and the rule.
--
-- Triggers, not CHECK constraints: a constraint would also refuse every later UPDATE of a row that broke the rule
-- before this migration (the projector's copy of a reassignment included), and stall the case; the trigger fires
-- only on the writes that move a placement (UPDATE OF status, foster_home_id); the query of docs/operations.md
-- ("Placements outside the gate") lists the rows written before it or with triggers disabled.
--
-- The jurisdiction is compared after the home's lock, for an activation, so that the home read is the one the
-- activation counts against; the case's jurisdiction is read from its projection row, which every API write holds
-- FOR SHARE before it reaches the placement (LockOrder). A home of unknown jurisdiction (NULL) never takes a
-- placement of a case whose jurisdiction is known; a case of unknown jurisdiction is not compared (the API refuses
-- every record of an unknown jurisdiction, decision 12). An activation runs under READ COMMITTED only (CAH07).

CREATE OR REPLACE FUNCTION placements_home_gate() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    enters   boolean := NEW.status = 'ACTIVE'
                        AND (TG_OP = 'INSERT' OR OLD.status <> 'ACTIVE' OR OLD.foster_home_id IS DISTINCT FROM NEW.foster_home_id);
    arrives  boolean := TG_OP = 'INSERT' OR OLD.foster_home_id IS DISTINCT FROM NEW.foster_home_id;
    homeless boolean := NEW.status = 'ACTIVE' AND NEW.foster_home_id IS NULL
                        AND (TG_OP = 'INSERT' OR OLD.status <> 'ACTIVE' OR OLD.foster_home_id IS NOT NULL);
    licence  text;
    places   integer;
    homes_of text;
    cases_of text;
    taken    integer;
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.status IN ('ENDED', 'CANCELLED') AND NEW.status <> OLD.status
                             OR NEW.status IN ('ENDED', 'CANCELLED') AND OLD.foster_home_id IS DISTINCT FROM NEW.foster_home_id) THEN
        -- where a child was is a record: an END names the home left, a CANCELLED proposal the home it named; a
        -- final placement stays final, so that no pair of statements can move it and end it again elsewhere
        RAISE EXCEPTION USING ERRCODE = 'CAH05', CONSTRAINT = 'placements_final_keeps_home',
            MESSAGE = format('Placement %s is %s (or is being %s); it keeps its foster home (%s) and its status, and '
                             'cannot move', NEW.id,
                             CASE WHEN OLD.status IN ('ENDED', 'CANCELLED') THEN OLD.status ELSE NEW.status END,
                             lower(CASE WHEN OLD.status IN ('ENDED', 'CANCELLED') THEN OLD.status ELSE NEW.status END),
                             coalesce(OLD.foster_home_id::text, 'none'));
    END IF;
    IF homeless THEN
        RAISE EXCEPTION USING ERRCODE = 'CAH04', CONSTRAINT = 'placements_active_in_a_home',
            MESSAGE = format('Placement %s would be ACTIVE in no foster home; an ACTIVE placement is always in a home '
                             '(to take a child out of a home, END the placement)', NEW.id);
    END IF;
    IF NEW.foster_home_id IS NULL OR NOT (enters OR arrives) THEN
        RETURN NEW;
    END IF;
    IF enters AND current_setting('transaction_isolation') <> 'read committed' THEN
        -- the count below must see an activation committed while this one waited for the home's lock
        RAISE EXCEPTION USING ERRCODE = 'CAH07', CONSTRAINT = 'placements_home_gate_read_committed',
            MESSAGE = format('Placement %s cannot be activated in a %s transaction: the occupancy gate counts under '
                             'READ COMMITTED only', NEW.id, current_setting('transaction_isolation'));
    END IF;
    IF enters THEN
        -- a separate statement from the write's own re-read: every activation into this home waits here for
        -- the one before it, and for an update of the home, so the count below is of committed rows
        SELECT license_status, capacity, jurisdiction INTO licence, places, homes_of
          FROM foster_homes WHERE id = NEW.foster_home_id FOR UPDATE;
    ELSE
        -- a PROPOSED placement names the home without occupying it: no lock, so its key check never waits
        SELECT license_status, capacity, jurisdiction INTO licence, places, homes_of
          FROM foster_homes WHERE id = NEW.foster_home_id;
    END IF;
    IF NOT FOUND THEN
        RETURN NEW; -- the foreign key refuses it
    END IF;
    SELECT jurisdiction INTO cases_of FROM case_assignments WHERE case_id = NEW.case_id;
    IF cases_of IS NOT NULL AND homes_of IS DISTINCT FROM cases_of THEN
        RAISE EXCEPTION USING ERRCODE = 'CAH06', CONSTRAINT = 'placements_home_of_the_cases_jurisdiction',
            MESSAGE = format('Foster home %s is not a home of %s, the jurisdiction of case %s; a placement can be '
                             'ACTIVE in, or name, only a home of its case''s jurisdiction', NEW.foster_home_id,
                             cases_of, NEW.case_id);
    END IF;
    IF licence IN ('SUSPENDED', 'REVOKED') OR (enters AND licence <> 'ACTIVE') THEN
        RAISE EXCEPTION USING ERRCODE = 'CAH02', CONSTRAINT = 'placements_home_licensed',
            MESSAGE = format('Foster home %s has a %s license; %s', NEW.foster_home_id, licence,
                             CASE WHEN enters THEN 'a placement can be ACTIVE only in a home with an ACTIVE license'
                                  WHEN NEW.status = 'PROPOSED'
                                      THEN 'a placement can be proposed only in a home whose license is PENDING or ACTIVE'
                                  ELSE format('a%s %s placement can name only a home whose license is PENDING or ACTIVE',
                                              CASE WHEN NEW.status = 'ENDED' THEN 'n' ELSE '' END, NEW.status) END);
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
