/**
 * Safe retries of creates: the {@code Idempotency-Key} header, its record in the create's own
 * transaction, replays and their authorization, and the purge of expired keys (decision 17).
 */
package org.caseassignments.api.idempotency;
