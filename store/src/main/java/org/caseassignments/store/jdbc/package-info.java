/**
 * Statements of different features sent to PostgreSQL in one round trip
 * ({@link org.caseassignments.store.jdbc.OneRoundTrip}): a write's hold of its case and the claim of its
 * {@code Idempotency-Key}, an audit record and the key's answer.
 */
package org.caseassignments.store.jdbc;
