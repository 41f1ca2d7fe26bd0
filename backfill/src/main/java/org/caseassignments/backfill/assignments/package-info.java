/**
 * The {@code assignments} command: loads a snapshot of the case service into the projection in
 * batches, one transaction per batch, through the store's guarded writer under the snapshot guard;
 * writes bad rows to a rejects file, checkpoints after every committed batch, and resumes from it.
 */
package org.caseassignments.backfill.assignments;
