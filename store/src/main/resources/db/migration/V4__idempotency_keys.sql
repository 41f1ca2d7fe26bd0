-- Idempotency-Key records of the mutation API's creates (decision 17). A row is inserted in the same
-- transaction as the create it answers for, so it exists exactly when the create committed; the primary
-- key makes PostgreSQL, not one instance's memory, decide which of two concurrent requests with a key wins.

CREATE TABLE idempotency_keys (
    caller_sub      text        NOT NULL,
    endpoint        text        NOT NULL,
    idempotency_key text        NOT NULL,
    fingerprint     bytea       NOT NULL,
    status          integer,
    location        text,
    etag            text,
    body            text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (caller_sub, endpoint, idempotency_key)
);

-- The purge finds expired keys by age, in small batches.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

COMMENT ON TABLE idempotency_keys IS
    'Recorded responses of creates sent with an Idempotency-Key, per caller and endpoint (method and path '
    'template); purged after api.idempotency.retention.';
