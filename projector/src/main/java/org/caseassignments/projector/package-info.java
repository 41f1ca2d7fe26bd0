/**
 * The projector application: consumes the case events and keeps the causally monotonic
 * {@code case_assignments} projection, and the entity rows that copy it, in PostgreSQL.
 */
package org.caseassignments.projector;
