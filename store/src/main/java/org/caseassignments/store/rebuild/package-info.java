/**
 * The rebuild's tables and their locks (decision 19): the shadow's creation and grants, the swap that renames it in
 * under a short {@code ACCESS EXCLUSIVE} lock of the projection, the undo, and the deadline that bounds every
 * statement under that lock. The backfill's {@code rebuild} command runs them; no other module issues this SQL.
 */
package org.caseassignments.store.rebuild;
