/**
 * Snapshot sources shared by the {@code assignments} and {@code verify} commands: a CSV or JSON Lines
 * file, or a read-only JDBC query against the case service's database. Each row is validated into a
 * {@link org.caseassignments.backfill.snapshot.SnapshotRow} or a {@link org.caseassignments.backfill.snapshot.BadRow}
 * with its line number and reason; bad rows go to a {@link org.caseassignments.backfill.snapshot.RejectsFile}.
 */
package org.caseassignments.backfill.snapshot;
