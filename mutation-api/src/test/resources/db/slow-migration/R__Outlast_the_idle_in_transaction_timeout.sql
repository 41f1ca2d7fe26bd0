-- Used by MutationApiApplicationIntegrationTests only: a migration that runs longer than the pool's
-- idle_in_transaction_session_timeout, while the migration lock's transaction sits idle on another connection.
SELECT pg_sleep(3);
