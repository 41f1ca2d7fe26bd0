/**
 * Placements of a case's child: create (assignment derived from the projection), read, list and
 * update (status PROPOSED → ACTIVE or CANCELLED, ACTIVE → ENDED; foster home; dates), each authorized
 * by the caller's ruleset and guarded by the shared write paths.
 */
package org.caseassignments.api.placement;
