package org.caseassignments.store.hold;

import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;

/**
 * A case held {@code FOR SHARE} by {@link CaseHold} until the transaction ends, after its queue: what every write of a
 * case-scoped row takes, so that no row of the third step of the lock order is locked or written before its case.
 * Held either for a row ({@link CaseHold#ofRow}), which that row's locked read, update and delete take, or for a case
 * by its id ({@link CaseHold#forShare}), which an insert into that case takes. Only the hold makes one.
 */
public final class HeldCase {

    private final CaseScopedTable table;
    private final UUID rowId;
    private final UUID caseId;
    private final String traceId;

    private HeldCase(CaseScopedTable table, UUID rowId, UUID caseId, String traceId) {
        this.table = table;
        this.rowId = rowId;
        this.caseId = caseId;
        this.traceId = traceId;
    }

    /** The case of the row {@code rowId} of {@code table}, held. */
    static HeldCase ofRow(CaseScopedTable table, UUID rowId, String traceId) {
        return new HeldCase(table, rowId, null, traceId);
    }

    /** The case {@code caseId}, held by its id. */
    static HeldCase ofCase(UUID caseId, String traceId) {
        return new HeldCase(null, null, caseId, traceId);
    }

    /**
     * The row whose case is held, which the caller locks, updates or deletes; refused for a hold of another table's
     * row, or of a case by its id.
     */
    public UUID rowId(CaseScopedTable of) {
        if (table == null) {
            throw new IllegalArgumentException("the hold is of case " + caseId + " by its id, not of a row of "
                    + of.table() + ": a row's write takes the hold of that row's case (CaseHold.ofRow)");
        }
        if (of != table) {
            throw new IllegalArgumentException("the case held is of a row of " + table.table() + ", not of " + of.table());
        }
        return rowId;
    }

    /**
     * The case held by its id, into which the caller inserts; refused for a hold taken for a row, whose case's id
     * the hold does not read.
     */
    public UUID caseId() {
        if (caseId == null) {
            throw new IllegalArgumentException("the hold is of the case of a row of " + table.table()
                    + ", not of a case by its id: an insert takes the hold of its case (CaseHold.forShare)");
        }
        return caseId;
    }

    /**
     * The trace id of the event that set the projection row held, which the caller passes on to what it records;
     * null when that event carried none, or there is no such row.
     */
    public String traceId() {
        return traceId;
    }
}
