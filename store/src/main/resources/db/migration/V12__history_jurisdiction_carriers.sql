-- The entries of a case's history whose event carried a jurisdiction, by revision (decision 40). The mutation API
-- computes the jurisdiction in force at each entry when it reads it: for an entry below the case's highest carrier,
-- the jurisdiction of the nearest carrier at or below it; this index answers that, and the highest carrier itself,
-- with one probe each, however many entries without a jurisdiction lie between. Only carriers are indexed (a
-- case.created, a move), so the projector's ordinary events write no entry of it.
--
-- A plain build: it reads the table once and writes only the carriers, holding a SHARE lock (history writes wait,
-- reads do not) for that scan; no row is rewritten. (CONCURRENTLY would wait forever on Flyway's own transactional
-- advisory lock.)

-- It waits at most 30 s for its lock (a purge or replay transaction in progress): past that the service does not
-- start, and the next start tries again, rather than have every history write queue behind it.
SET LOCAL lock_timeout = '30s';

CREATE INDEX case_assignment_history_jurisdiction_carriers
    ON case_assignment_history (case_id, assignment_revision)
    WHERE jurisdiction IS NOT NULL;
