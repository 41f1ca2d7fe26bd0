/**
 * The {@code rebuild} command: builds a fresh projection from the beginning of the event topics into a shadow
 * table through the guarded writer while the projector and the API keep running, catches it up to the live end,
 * then swaps it in under a short {@code ACCESS EXCLUSIVE} lock; the replaced table is kept for an undo until
 * {@code --drop-previous}. {@code --dry-run} reports how the shadow differs from the live projection instead.
 */
package org.caseassignments.backfill.rebuild;
