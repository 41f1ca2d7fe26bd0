-- The last accepted replacement ruleset of each jurisdiction, written by the mutation API when it
-- accepts a ruleset file and read when, after a restart, the file on disk is invalid: the service
-- then serves this version instead of denying the jurisdiction. Shared by every instance.

CREATE TABLE accepted_rulesets (
    jurisdiction text        PRIMARY KEY,
    version      text        NOT NULL,
    origin       text        NOT NULL,
    content      text        NOT NULL,
    accepted_at  timestamptz NOT NULL
);

COMMENT ON TABLE accepted_rulesets IS
    'Last accepted ruleset document per jurisdiction (mutation API); vetted again before it serves. '
    'A row is dropped when its jurisdiction''s file is removed, so a removed replacement never comes back.';
