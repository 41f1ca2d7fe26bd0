/**
 * The write leg of the {@code case_assignments} projection, whole: the rule that reduces a batch to one update per
 * case ({@link org.caseassignments.store.BatchReduction}, into a {@link org.caseassignments.store.ReducedBatch}), the
 * batch writer that retries, isolates refused rows and counts ({@link org.caseassignments.store.BatchWriter}), and the
 * guarded (never-rewind) write of the projection and of the denormalized assignment on placement and kinship rows
 * ({@link org.caseassignments.store.AssignmentWriter}), with its SQL and lock protocol. Every path that writes the
 * projection — the projector and the backfill and replay jobs — goes through it, so there is one implementation of
 * the guard. It knows no Kafka and no Avro: what it is handed is an update, never a record.
 */
package org.caseassignments.store;
