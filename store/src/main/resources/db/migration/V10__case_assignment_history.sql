-- Every revision of every case's assignment the live guarded writer was ever given (the projector, replay,
-- snapshot load; not a rebuild's shadow), whether or not it moved the projection: reordered and older events are
-- history too. At most one entry per (case, revision), the first one written; replays and duplicates
-- change nothing (decision 32). The mutation API reads it and never writes it.

CREATE TABLE case_assignment_history (
    case_id             uuid        NOT NULL,
    assignment_revision bigint      NOT NULL,
    assigned_worker_sub text        NULL,
    supervisor_sub      text        NULL,
    jurisdiction        text        NULL,
    occurred_at         timestamptz NULL,
    applied_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT case_assignment_history_pkey PRIMARY KEY (case_id, assignment_revision),
    CONSTRAINT case_assignment_history_revision_non_negative CHECK (assignment_revision >= 0)
);

-- No other index: every read is of one case (its history, "in force at a time or a revision") and walks that
-- case's few entries by the primary key; the retention purge walks the cases in key order. Each index more
-- would be written once per event the projector applies.

COMMENT ON TABLE case_assignment_history IS
    'Every (case, revision) the projection''s writers have seen, first payload kept; never updated. '
    'Purged only by the backfill''s history-purge job (docs/backfill.md).';
COMMENT ON COLUMN case_assignment_history.occurred_at IS
    'When the case service committed the change (the event''s occurred_at); null for a snapshot row, '
    'which says no time: such an entry answers as_of_revision but never as_of.';
COMMENT ON COLUMN case_assignment_history.jurisdiction IS
    'The jurisdiction the event carried; null when it carried none.';

GRANT SELECT ON case_assignment_history TO case_assignments_api;
