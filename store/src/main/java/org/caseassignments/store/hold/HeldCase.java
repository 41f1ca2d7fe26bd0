package org.caseassignments.store.hold;

import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;

/**
 * A case-scoped row's case, held {@code FOR SHARE} by {@link CaseHold#ofRow} until the transaction ends: what the
 * row's locked read takes, so that no row of the third step of the lock order is locked before its case. Only the
 * hold makes one.
 */
public final class HeldCase {

    private final CaseScopedTable table;
    private final UUID rowId;
    private final String traceId;

    HeldCase(CaseScopedTable table, UUID rowId, String traceId) {
        this.table = table;
        this.rowId = rowId;
        this.traceId = traceId;
    }

    /** The row whose case is held, which the caller locks next. */
    public UUID rowId(CaseScopedTable of) {
        if (of != table) {
            throw new IllegalArgumentException("the case held is of a row of " + table.table() + ", not of " + of.table());
        }
        return rowId;
    }

    /**
     * The trace id of the event that set the projection row held, which the caller passes on to what it records;
     * null when that event carried none, or there is no such row.
     */
    public String traceId() {
        return traceId;
    }
}
