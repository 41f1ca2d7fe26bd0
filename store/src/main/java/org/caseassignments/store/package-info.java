/**
 * The guarded (never-rewind) write of the {@code case_assignments} projection and of the
 * denormalized assignment on placement and kinship rows. Every path that writes the projection —
 * the projector and the backfill and replay jobs — goes through
 * {@link org.caseassignments.store.AssignmentWriter}, so there is one implementation of the guard.
 */
package org.caseassignments.store;
