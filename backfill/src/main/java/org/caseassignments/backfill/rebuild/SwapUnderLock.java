package org.caseassignments.backfill.rebuild;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.store.rebuild.Deadline;
import org.caseassignments.store.rebuild.ShadowTables;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The swap: one transaction under the projection's {@code ACCESS EXCLUSIVE} lock, its hold bounded by
 * {@code --swap-within}, tried again after catching up when the lock is not granted in time or the hold would run
 * past its budget. Decisions 19 and 24.
 */
final class SwapUnderLock {

    static final String LOCK_NOT_AVAILABLE = "55P03";
    static final String QUERY_CANCELED = "57014";

    /**
     * The server ended the session: {@code idle_in_transaction_session_timeout} (25P03), {@code transaction_timeout}
     * (25P04), {@code pg_terminate_backend} or a shutdown (57P01, 57P02); class 08 is the connection lost.
     */
    private static final Set<String> SESSION_ENDED = Set.of("25P03", "25P04", "57P01", "57P02");

    private final ShadowTables tables;
    private final ShadowTransactions shadowWrites;
    private final TransactionTemplate swap;
    private final Duration lockTimeout;
    private final Duration within;
    private final int attempts;
    private final Runnable stillClaimed;
    private final boolean allowMissingCases;
    private final boolean allowLower;

    SwapUnderLock(ShadowTables tables, ShadowTransactions shadowWrites, PlatformTransactionManager transactions,
                  Duration lockTimeout, Duration within, int attempts, boolean allowMissingCases, boolean allowLower,
                  Runnable stillClaimed) {
        this.tables = tables;
        this.shadowWrites = shadowWrites;
        this.swap = new TransactionTemplate(transactions);
        this.lockTimeout = lockTimeout;
        this.within = within;
        this.attempts = attempts;
        this.stillClaimed = stillClaimed;
        this.allowMissingCases = allowMissingCases;
        this.allowLower = allowLower;
    }

    /** The swap's outcome: its timing, or what made it refuse under the lock (nothing was swapped then). */
    record Outcome(SwapTiming timing, ShadowTables.Losses refused) {
    }

    /**
     * Catches up outside the lock until the rest of the topics would take at most a quarter of {@code --swap-within},
     * reads the end offsets, then in one transaction: the lock (bounded wait); the tail up to those offsets; the end
     * offsets again and the few events that arrived while the lock was awaited (a projector transaction that already
     * held the table could commit them); for the live rows written since {@code horizon}, the jurisdictions carried
     * over again and the check of what the swap would drop or lower (added to {@code before}, the same of the older
     * rows); the renames. Everything under the lock is bounded by the deadline {@code --swap-within} after the
     * grant: each step checks it, no poll and no request for the end offsets waits past it, and every statement from
     * the grant on is cancelled at it ({@code statement_timeout}, set again before each). Once it has passed the
     * transaction rolls back, and the rebuild catches up and asks again. The one wait it does not bound: decoding a
     * record of the tail whose schema id the run has not met yet asks the schema registry, for at most the
     * registry's own timeout (decision 24). Nothing the projector committed can be missing: it commits only events it has read, below the end
     * read under the lock, and it cannot commit while the lock is held. What it commits afterwards goes to the new
     * table, through its guard.
     */
    Outcome run(ShadowBuild shadow, PrintWriter err, String horizon, ShadowTables.Losses before) {
        Progress quiet = new Progress(err, Progress.Mode.NONE, Duration.ZERO, "events");
        for (int attempt = 1; ; attempt++) {
            Map<TopicPartition, Long> ends;
            do {
                shadow.catchUpWithin(within.dividedBy(4), quiet);
                ends = shadow.liveEnd();
            } while (shadow.estimate(shadow.lagTo(ends)).compareTo(within.dividedBy(2)) > 0);
            Map<TopicPartition, Long> sized = ends;
            ShadowBuild.Mark mark = shadow.mark();
            long readBefore = shadow.totals().read();
            long[] granted = new long[2];
            ShadowTables.Losses[] losses = new ShadowTables.Losses[1];
            try {
                swap.executeWithoutResult(status -> {
                    granted[0] = System.nanoTime();
                    tables.lockLive(lockTimeout, within);
                    granted[1] = System.nanoTime();
                    Deadline deadline = Deadline.after(within);
                    tables.boundStatements(deadline);
                    // Which tables it holds, before it reads the tail into the shadow or checks anything against them
                    tables.requireAsNoted("nothing was swapped", ShadowTables.LIVE, ShadowTables.SHADOW);
                    tables.boundStatements(deadline);
                    shadowWrites.bound(deadline);
                    try {
                        shadow.drainTo(sized, deadline);
                        shadow.drainTo(shadow.liveEnd(deadline), deadline);
                    } finally {
                        shadowWrites.bound(Deadline.NONE);
                    }
                    losses[0] = before.plus(tables.checkUnderLock(deadline, horizon));
                    if (losses[0].dropped() > 0 && !allowMissingCases || losses[0].lowered() > 0 && !allowLower) {
                        status.setRollbackOnly();
                        return;
                    }
                    tables.swap(deadline);
                });
                if (losses[0].dropped() > 0 && !allowMissingCases || losses[0].lowered() > 0 && !allowLower) {
                    return new Outcome(null, losses[0]);
                }
                long committed = System.nanoTime();
                return new Outcome(new SwapTiming(attempt, lockTimeout, Duration.ofNanos(granted[1] - granted[0]),
                        Duration.ofNanos(committed - granted[1]), shadow.totals().read() - readBefore), null);
            } catch (Deadline.Passed | DataAccessException | TransactionException e) {
                String ended = sessionEnded(e);
                // Which table is live says what the lost session did, read before anything is undone or tried again:
                // another run's table stops the run here.
                if (ended != null && tables.projectionOrChanged("the database ended the swap's session (" + ended
                        + "); nothing was swapped") == ShadowTables.Projection.SWAPPED) {
                    // The commit reached the database before the session ended: done, and not to be done again.
                    err.println("backfill rebuild: the database ended the swap's session (" + ended + ") after its "
                            + "commit reached it; " + ShadowTables.Projection.SWAPPED.said());
                    long now = System.nanoTime();
                    long grant = granted[1] == 0 ? now : granted[1];
                    return new Outcome(new SwapTiming(attempt, lockTimeout, Duration.ofNanos(grant - granted[0]),
                            Duration.ofNanos(now - grant), shadow.totals().read() - readBefore), null);
                }
                boolean gaveWay = e instanceof Deadline.Passed || sqlState(e, QUERY_CANCELED);
                if (!gaveWay && ended == null && !sqlState(e, LOCK_NOT_AVAILABLE) || attempt >= attempts) {
                    throw gaveWay ? new IllegalStateException("the swap did not fit in --swap-within " + within.toMillis()
                            + " ms in " + attempt + " attempts (the topics' tail keeps growing faster than it is read, the "
                            + "checks under the lock take longer on a table this size, or a statement under the lock "
                            + "waits for a transaction holding the shadow's rows): raise --swap-within, or end that "
                            + "transaction", e)
                            : ended != null ? new IllegalStateException("the database ended the swap's session in its "
                            + "last attempt of " + attempts + " (" + ended + ")", e)
                            : (RuntimeException) e;
                }
                // Rolled back: what it had written to the shadow is read again.
                shadow.rewindTo(mark);
                if (ended != null) {
                    stillClaimed.run();
                    err.printf(Locale.ROOT, "backfill rebuild: the database ended the swap's session (%s); %s; gave way "
                            + "(attempt %d of %d), catching up and trying again on a new session%n", ended,
                            ShadowTables.Projection.UNCHANGED.said(), attempt, attempts);
                } else if (gaveWay) {
                    err.printf(Locale.ROOT, "backfill rebuild: the swap did not fit in %d ms under the lock; gave way "
                            + "(attempt %d of %d), catching up and trying again%n", within.toMillis(), attempt,
                            attempts);
                } else {
                    err.printf(Locale.ROOT, "backfill rebuild: the projection's lock was not granted within %d ms "
                            + "(attempt %d of %d; held by: %s); catching up and trying again%n", lockTimeout.toMillis(), attempt,
                            attempts, tables.lockHolders());
                }
            }
        }
    }

    /**
     * What ended the transaction's session, when the server did (its idle or transaction timeout, a terminate, a
     * shutdown) or the connection was lost (SQLSTATE class 08, which the driver gives a closed socket), also when
     * Spring's rollback of such a session failed ({@link TransactionSystemException}: the pool had closed the
     * connection, and the rollback's failure, without a SQLSTATE, replaced the statement's, which says why); null for
     * any other failure, a rollback that failed after one included. Whether the commit reached the database first is
     * read afterwards, on a new session ({@link ShadowTables#projection()}).
     */
    static String sessionEnded(Throwable failure) {
        String state = endedState(failure);
        if (state == null && failure instanceof TransactionSystemException rollback) {
            state = endedState(rollback.getApplicationException());
        }
        return state;
    }

    private static String endedState(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof SQLException sql && sql.getSQLState() != null
                    && (SESSION_ENDED.contains(sql.getSQLState()) || sql.getSQLState().startsWith("08"))) {
                return "SQLSTATE " + sql.getSQLState() + ": " + sql.getMessage().lines().findFirst().orElse("");
            }
        }
        return null;
    }

    static boolean sqlState(Exception e, String state) {
        return e instanceof DataAccessException dae && dae.getMostSpecificCause() instanceof SQLException sql
                && state.equals(sql.getSQLState());
    }
}
