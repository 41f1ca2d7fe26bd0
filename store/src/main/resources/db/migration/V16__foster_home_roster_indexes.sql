-- The roster (decision 45): GET /foster-homes pages one jurisdiction's homes, GET /foster-homes/{id}/placements one
-- home's placements, both in list order (created_at, id) after a cursor. Without these indexes each page would sort
-- every home of the jurisdiction, or every placement that ever named the home (the partial index of V6 holds only the
-- ACTIVE ones); with them a page reads its rows in order and stops one past its limit.
--
-- Plain builds: each reads its table once, holding a SHARE lock (writes of the table wait, reads do not) for that
-- scan; no row is rewritten. (CONCURRENTLY would wait forever on Flyway's own transactional advisory lock.)

-- Each waits at most 30 s for its lock (a long write transaction in progress): past that the service does not start,
-- and the next start tries again, rather than have every placement write queue behind it.
SET LOCAL lock_timeout = '30s';

CREATE INDEX foster_homes_roster ON foster_homes (jurisdiction, created_at, id);

CREATE INDEX placements_by_home ON placements (foster_home_id, created_at, id) WHERE foster_home_id IS NOT NULL;
