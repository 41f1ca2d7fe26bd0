/**
 * Reads of the {@code case_assignments} projection: from the pool before a transaction (to build
 * what a create's decision sees) and {@code FOR SHARE} inside one (to hold it against the projector
 * while the create commits); and {@code GET /cases/{caseId}/assignment}. This package never writes
 * the projection: the create path's placeholder goes through {@code store}'s guarded writer.
 */
package org.caseassignments.api.assignment;
