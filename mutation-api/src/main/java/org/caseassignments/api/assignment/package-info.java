/**
 * Reads of the {@code case_assignments} projection: from the pool before a transaction (to build
 * what a create's decision sees) and {@code FOR SHARE} inside one (to hold it against the projector
 * while a create or an update of a case-scoped row commits, through store's
 * {@link org.caseassignments.store.hold.CaseHold}); and {@code GET /cases/{caseId}/assignment}.
 * Requests that wait for the projection to reach a revision (a waited read, a write held by
 * {@code Min-Assignment-Revision}) are authorized first, bounded, and woken by the projector's commits
 * (decisions 32 and 39). The mutation API never writes the projection.
 */
package org.caseassignments.api.assignment;
