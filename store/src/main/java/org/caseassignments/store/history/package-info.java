/**
 * The assignments' history cut to a retention: the entries an older entry of the same case supersedes, counted or
 * deleted a batch of cases at a time. The backfill's {@code history-purge} command runs it in a transaction per batch.
 */
package org.caseassignments.store.history;
