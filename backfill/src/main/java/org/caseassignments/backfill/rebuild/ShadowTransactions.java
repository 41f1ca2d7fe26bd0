package org.caseassignments.backfill.rebuild;

import org.caseassignments.store.rebuild.Deadline;
import org.caseassignments.store.rebuild.ShadowTables;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions the shadow is written in: one of its own per batch while the shadow is built, a savepoint inside
 * the swap's transaction for the tail read under the lock. Under the lock each write is bounded by the swap's
 * deadline ({@link #bound}): it is not begun once the deadline has passed, its statements are cancelled at it
 * ({@code statement_timeout} set to the time left), and a cancellation is the deadline's, so the batch writer gives
 * way at once instead of retrying the batch in smaller parts, each of which would hold the lock again. Before each
 * write commits, the shadow's name is checked to still be the table this run created ({@link
 * ShadowTables#requireAsNoted}). Decisions 24 and 46.
 */
final class ShadowTransactions extends TransactionTemplate {

    private static final String UNCOMMITTED = "the batch written into it is not committed";

    private final transient ShadowTables tables;
    private transient volatile Deadline deadline = Deadline.NONE;

    ShadowTransactions(PlatformTransactionManager transactions, ShadowTables tables) {
        super(transactions);
        // Nested: a transaction of its own while the shadow is built, a savepoint inside the swap's transaction.
        setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
        this.tables = tables;
    }

    /** Bounds every write from now on by {@code deadline} ({@link Deadline#NONE}: no bound, outside the lock). */
    void bound(Deadline deadline) {
        this.deadline = deadline;
    }

    @Override
    public <T> T execute(TransactionCallback<T> action) {
        Deadline bound = deadline;
        if (bound == Deadline.NONE) {
            return super.execute(status -> {
                T written = action.doInTransaction(status);
                tables.requireAsNoted(UNCOMMITTED, ShadowTables.SHADOW);
                return written;
            });
        }
        bound.check();
        return super.execute(status -> {
            tables.boundStatements(bound);
            try {
                T written = action.doInTransaction(status);
                tables.requireAsNoted(UNCOMMITTED, ShadowTables.SHADOW);
                return written;
            } catch (DataAccessException e) {
                if (SwapUnderLock.sqlState(e, SwapUnderLock.QUERY_CANCELED)) {
                    throw new Deadline.Passed();
                }
                throw e;
            }
        });
    }
}
