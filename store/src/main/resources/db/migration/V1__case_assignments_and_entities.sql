-- The local projection of the upstream case service's assignments, and the case-scoped entities
-- that carry a denormalized copy of it.

CREATE TABLE case_assignments (
    case_id             uuid        PRIMARY KEY,
    assigned_worker_sub text        NULL,
    supervisor_sub      text        NULL,
    assignment_revision bigint      NOT NULL,
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT case_assignments_revision_known_or_placeholder CHECK (assignment_revision >= -1),
    CONSTRAINT case_assignments_placeholder_is_unassigned CHECK (
        assignment_revision >= 0 OR (assigned_worker_sub IS NULL AND supervisor_sub IS NULL))
);

COMMENT ON TABLE case_assignments IS
    'Causally monotonic projection of each case''s assignment, fed by case.created and case.assignment_changed. '
    'A row only ever moves to a strictly greater revision (backfill may converge values at an equal revision).';
COMMENT ON COLUMN case_assignments.assignment_revision IS
    'Upstream per-case assignment revision: 0 for a created case, bumped in the same upstream transaction '
    'as each assignment change, so revision order is commit order. -1 marks a placeholder for a case that '
    'is not known yet; readers treat any negative revision as unknown.';

CREATE TABLE foster_homes (
    id             uuid        PRIMARY KEY,
    name           text        NOT NULL,
    license_number text        NOT NULL,
    license_status text        NOT NULL,
    admin_unit     text        NOT NULL,
    capacity       int         NULL,
    row_version    bigint      NOT NULL DEFAULT 1,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT foster_homes_license_number_unique UNIQUE (license_number),
    CONSTRAINT foster_homes_license_status_valid CHECK (license_status IN ('PENDING', 'ACTIVE', 'SUSPENDED', 'REVOKED')),
    CONSTRAINT foster_homes_capacity_non_negative CHECK (capacity IS NULL OR capacity >= 0),
    CONSTRAINT foster_homes_row_version_positive CHECK (row_version >= 1)
);

COMMENT ON TABLE foster_homes IS 'Licensed foster homes; not case-scoped, so they carry no assignment.';
COMMENT ON COLUMN foster_homes.row_version IS
    'Optimistic-concurrency version, incremented by every write; travels to clients as the strong ETag.';

CREATE TABLE placements (
    id                  uuid        PRIMARY KEY,
    case_id             uuid        NOT NULL,
    status              text        NOT NULL,
    foster_home_id      uuid        NULL REFERENCES foster_homes (id),
    start_date          date        NULL,
    end_date            date        NULL,
    assigned_worker_sub text        NULL,
    supervisor_sub      text        NULL,
    assignment_revision bigint      NOT NULL DEFAULT 0,
    row_version         bigint      NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    created_by          text        NOT NULL,
    CONSTRAINT placements_status_valid CHECK (status IN ('PROPOSED', 'ACTIVE', 'ENDED', 'CANCELLED')),
    CONSTRAINT placements_revision_non_negative CHECK (assignment_revision >= 0),
    CONSTRAINT placements_row_version_positive CHECK (row_version >= 1),
    CONSTRAINT placements_dates_ordered CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date)
);

CREATE INDEX placements_case_id_idx ON placements (case_id);

COMMENT ON TABLE placements IS 'Placements of a case''s child in a foster home.';
COMMENT ON COLUMN placements.assignment_revision IS
    'Revision of the case assignment copied into assigned_worker_sub/supervisor_sub; the projector and the '
    'backfill only ever move it forward. 0 with no worker and no supervisor: born while the case was unknown.';
COMMENT ON COLUMN placements.row_version IS
    'Optimistic-concurrency version, incremented by every write (the projector''s too); the strong ETag.';

CREATE TABLE kinship_options (
    id                  uuid        PRIMARY KEY,
    case_id             uuid        NOT NULL,
    relative_name       text        NOT NULL,
    relationship        text        NOT NULL,
    approved            boolean     NOT NULL DEFAULT false,
    active              boolean     NOT NULL DEFAULT true,
    deleted_at          timestamptz NULL,
    assigned_worker_sub text        NULL,
    supervisor_sub      text        NULL,
    assignment_revision bigint      NOT NULL DEFAULT 0,
    row_version         bigint      NOT NULL DEFAULT 1,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    created_by          text        NOT NULL,
    CONSTRAINT kinship_options_revision_non_negative CHECK (assignment_revision >= 0),
    CONSTRAINT kinship_options_row_version_positive CHECK (row_version >= 1),
    CONSTRAINT kinship_options_soft_delete_consistent CHECK (active = (deleted_at IS NULL))
);

CREATE INDEX kinship_options_case_id_idx ON kinship_options (case_id);

COMMENT ON TABLE kinship_options IS 'Relatives considered for kinship care; soft-deleted rows have active = false.';
COMMENT ON COLUMN kinship_options.assignment_revision IS
    'Revision of the case assignment copied into assigned_worker_sub/supervisor_sub; the projector and the '
    'backfill only ever move it forward. 0 with no worker and no supervisor: born while the case was unknown.';
COMMENT ON COLUMN kinship_options.row_version IS
    'Optimistic-concurrency version, incremented by every write (the projector''s too); the strong ETag.';
