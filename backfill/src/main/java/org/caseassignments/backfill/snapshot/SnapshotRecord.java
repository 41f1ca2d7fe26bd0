package org.caseassignments.backfill.snapshot;

/** One record read from a snapshot: a valid row, or a bad one with its reason. */
public sealed interface SnapshotRecord permits SnapshotRow, BadRow {

    /** The line number in the file (the record's last line), or the row number of a JDBC result. */
    long line();
}
