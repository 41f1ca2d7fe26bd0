/**
 * {@code backfill history-purge}: removes entries of the assignments' history older than the retention, keeping
 * for each case the entry in force at the retention's horizon, so every answer about a later time stays exact.
 */
package org.caseassignments.backfill.history;
