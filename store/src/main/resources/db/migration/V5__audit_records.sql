-- The audit trail of the mutation API (decision 18): one row per successful create, update and delete,
-- inserted in the write's own transaction, and one row per refused write (403, 409 CONCURRENT_MODIFICATION,
-- 412), written later in batches by a writer outside the request pool. Append-only: the API's role may
-- INSERT and SELECT, nothing else. Partitioned by month of recorded_at, so old months are detached and
-- archived whole (docs/audit.md) instead of deleted row by row.

CREATE SEQUENCE audit_records_id_seq AS bigint;

CREATE TABLE audit_records (
    id                   bigint      NOT NULL DEFAULT nextval('audit_records_id_seq'),
    recorded_at          timestamptz NOT NULL DEFAULT now(),
    request_id           text        NULL,
    outcome              text        NOT NULL,
    status               integer     NOT NULL,
    problem_code         text        NULL,
    caller_sub           text        NOT NULL,
    caller_roles         text[]      NOT NULL,
    jurisdiction         text        NOT NULL,
    action               text        NOT NULL,
    resource_type        text        NOT NULL,
    resource_id          uuid        NULL,
    case_id              uuid        NULL,
    ruleset_jurisdiction text        NULL,
    ruleset_version      text        NULL,
    rule_id              text        NULL,
    after_rule_id        text        NULL,
    assignment_revision  bigint      NULL,
    assigned_worker_sub  text        NULL,
    supervisor_sub       text        NULL,
    row_version_before   bigint      NULL,
    row_version_after    bigint      NULL,
    CONSTRAINT audit_records_outcome_valid CHECK (outcome IN ('WRITTEN', 'REFUSED')),
    CONSTRAINT audit_records_action_valid CHECK (action IN ('create', 'update', 'delete')),
    CONSTRAINT audit_records_written_names_its_authority CHECK (outcome <> 'WRITTEN' OR (
        resource_id IS NOT NULL AND ruleset_version IS NOT NULL AND rule_id IS NOT NULL
        AND row_version_after IS NOT NULL AND problem_code IS NULL)),
    CONSTRAINT audit_records_refused_names_its_code CHECK (outcome <> 'REFUSED' OR status IN (403, 409, 412))
) PARTITION BY RANGE (recorded_at);

ALTER SEQUENCE audit_records_id_seq OWNED BY audit_records.id;

-- The auditor's three filters, each newest first within one jurisdiction; (recorded_at, id) is the cursor.
CREATE INDEX audit_records_jurisdiction_time ON audit_records (jurisdiction, recorded_at, id);
CREATE INDEX audit_records_resource_time ON audit_records (resource_id, recorded_at, id);
CREATE INDEX audit_records_caller_time ON audit_records (caller_sub, recorded_at, id);

COMMENT ON TABLE audit_records IS
    'Who wrote or was refused what, under which ruleset version and rule, on the strength of which assignment '
    'revision (decision 18). Append-only for the API role; partitioned by month (audit_records_yYYYYmMM).';
COMMENT ON COLUMN audit_records.request_id IS
    'The X-Request-Id the request was answered with; null only for a write made outside an HTTP request.';
COMMENT ON COLUMN audit_records.jurisdiction IS
    'The caller''s jurisdiction, whose ruleset decided; for a write also the record''s. An auditor sees only these rows.';
COMMENT ON COLUMN audit_records.rule_id IS
    'The rule that allowed the request (for an update, the before-image''s); after_rule_id allowed the after-image '
    'when the update changed a policy-visible input.';
COMMENT ON COLUMN audit_records.assignment_revision IS
    'The case assignment the write saw under its lock: for a create, the projection row held FOR SHARE; '
    'for an update, the locked row''s copy. Null for foster homes and for refusals before the lock.';

-- Creates the month partitions from the current month through months_ahead months after it, in UTC,
-- and returns how many it created. SECURITY DEFINER: the partitions belong to the schema's owner, never
-- to the API role, which may only call this. Serialized by an advisory lock so that instances starting
-- together do not race on the same CREATE.
CREATE FUNCTION audit_records_ensure_partitions(months_ahead integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    first_month timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
    month       timestamp;
    name        text;
    created     integer := 0;
BEGIN
    IF months_ahead < 0 OR months_ahead > 120 THEN
        RAISE EXCEPTION 'months_ahead must be between 0 and 120, not %', months_ahead;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('audit_records_ensure_partitions'));
    FOR i IN 0..months_ahead LOOP
        month := first_month + make_interval(months => i);
        name := 'audit_records_' || to_char(month, '"y"YYYY"m"MM');
        IF to_regclass(quote_ident(name)) IS NULL THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF audit_records FOR VALUES FROM (%L) TO (%L)', name,
                           month AT TIME ZONE 'UTC', (month + interval '1 month') AT TIME ZONE 'UTC');
            created := created + 1;
        END IF;
    END LOOP;
    RETURN created;
END
$$;

-- A SECURITY DEFINER function resolves names in the schema it was created in, whatever the caller's path.
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION audit_records_ensure_partitions(integer) SET search_path = %I, pg_catalog',
                   current_schema());
END
$$;

SELECT audit_records_ensure_partitions(3);

-- The role the mutation API works as (it connects with any login that is a member and runs SET ROLE,
-- see docs/audit.md). Created here unless an administrator created it first; cluster-wide, so several
-- databases on one server (the tests') may race to create it.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'case_assignments_api') THEN
        CREATE ROLE case_assignments_api NOLOGIN;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;

-- The migrating login may act as the API role when it is also the API's login (the local stack).
DO $$
BEGIN
    IF NOT pg_has_role(current_user, 'case_assignments_api', 'MEMBER') THEN
        EXECUTE format('GRANT case_assignments_api TO %I', current_user);
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'could not make % a member of case_assignments_api; give the API''s login that membership', current_user;
END
$$;

DO $$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO case_assignments_api', current_schema());
END
$$;

GRANT SELECT, INSERT, UPDATE, DELETE
    ON case_assignments, foster_homes, placements, kinship_options, accepted_rulesets, idempotency_keys
    TO case_assignments_api;
-- Nothing but INSERT and SELECT: no UPDATE, DELETE or TRUNCATE, on the table or on any partition.
GRANT SELECT, INSERT ON audit_records TO case_assignments_api;
GRANT USAGE ON SEQUENCE audit_records_id_seq TO case_assignments_api;
REVOKE EXECUTE ON FUNCTION audit_records_ensure_partitions(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION audit_records_ensure_partitions(integer) TO case_assignments_api;
