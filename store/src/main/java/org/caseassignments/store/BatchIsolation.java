package org.caseassignments.store;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Writes a batch, and when PostgreSQL refuses it for some of its rows finds them by bisection: each half is
 * written in its own transaction, down to single rows, so every good row is applied and only the offending ones
 * are returned, in {@code O(offenders × log(batch))} transactions. Which failures it isolates is
 * {@link DatabaseRejection#handling}'s call:
 * <ul>
 *   <li>a refusal of the rows' data is isolated at once;</li>
 *   <li>any other refusal only when the caller says it persisted ({@link Options#isolateAnyRefusal}), and a row
 *       that fails alone with it is returned only while the table takes a write of no rows at all
 *       ({@link Options#writable}): otherwise the failure is the database's, not the row's, and is thrown;</li>
 *   <li>a statement timeout halves the rows written per transaction ({@link Chunks}), down to one row; a single row
 *       that still times out is thrown, never set aside; a timeout while waiting for a row lock is the database's
 *       state and shrinks nothing ({@link DatabaseRejection#handling});</li>
 *   <li>a failure of the database's state is thrown as it is, for the caller to retry the batch: given the same
 *       {@link Progress}, the retry resumes after the parts that committed before it, and its result counts them;</li>
 *   <li>a refusal that may be the database's, met by the first rows written alone — all of a batch, or the first
 *       {@link #EVERY_ROW_AFTER} — with one SQLSTATE before any row was taken, is the database's state (a trigger or
 *       policy refusing every row) only when the database refuses, with exactly that SQLSTATE, the probe
 *       ({@link Options#takesARow}): the projection upsert's insert and conflict update of the case the writer last
 *       committed, with the values it holds (not the entity rows' follow-up writes). Then {@link EveryRowRefused} is
 *       thrown and nothing is set aside. Whenever in doubt the probe concludes nothing, and the rows are set aside,
 *       each its own refusal: no case committed yet by the writer (a fresh projector, a replay into an empty table, a
 *       rebuild's shadow: there a trigger refusing every row dead-letters every row, recoverable with
 *       {@code redrive}), that case among the refused ones, its row gone or locked by another transaction, or the
 *       probe failing otherwise than with the rows' SQLSTATE (another SQLSTATE, a lock or statement timeout, a
 *       deadlock, the row silently not written);</li>
 *   <li>once a batch is being isolated, a caller that stops ({@link Options#stop}) ends it before its next
 *       transaction.</li>
 * </ul>
 * Halves are written in the batch's order, one after the other, so each transaction keeps the writer's lock order
 * and later rows of a case still follow earlier ones. The one implementation used by the projector, the replay and
 * the snapshot load.
 */
public final class BatchIsolation {

    /**
     * Rows written alone and refused alike, none taken, after which the database is asked to take a probe row: few
     * enough that a refusal of every row costs about ten transactions to tell, and one probe per isolation at most.
     */
    public static final int EVERY_ROW_AFTER = 10;

    /**
     * The first rows of a batch written alone were all refused with one SQLSTATE and none was taken: what refuses
     * them is the database's state (a trigger or a row-security policy refusing every row, a privilege revoked), not
     * each row, and setting them aside would dead-letter the whole stream. Nothing was set aside; retry the batch
     * like an outage ({@link DatabaseRejection#handling} says {@code RETRY}).
     */
    public static final class EveryRowRefused extends TransientDataAccessResourceException {

        private final String sqlState;

        EveryRowRefused(int rows, RuntimeException refusal) {
            super("PostgreSQL refused each of the first " + rows + " rows of a batch written alone with SQLSTATE "
                    + DatabaseRejection.refusedAlone(refusal).sqlState() + ", took none, and refused alike a row it "
                    + "holds rewritten with its own values: the database's state (a trigger or row-security policy "
                    + "refusing every row, a privilege revoked), not the rows'; nothing was set aside (" + DatabaseRejection.refusedAlone(refusal).message()
                    + ")", refusal);
            this.sqlState = DatabaseRejection.refusedAlone(refusal).sqlState();
        }

        /** The SQLSTATE every row was refused with. */
        public String sqlState() {
            return sqlState;
        }
    }

    /** The caller stopped ({@link Options#stop}) while a batch was being isolated: the rest of it is not written. */
    public static final class Stopped extends RuntimeException {
        public Stopped(int done, int items) {
            super("stopped while isolating a batch: " + done + " of its " + items
                    + " rows done, the rest not written; the batch stays uncommitted");
        }
    }

    /** An item PostgreSQL refused on its own. */
    public record Refused<T>(T item, DatabaseRejection rejection) {
    }

    /** What was applied (summed over the transactions that committed), and what was refused. */
    public record Isolated<T>(ApplyResult result, List<Refused<T>> refused) {
    }

    /**
     * What the transactions of one batch committed so far, over its attempts: how many of its items, from the first,
     * are done (written or refused), what they changed and which were refused. An attempt that fails leaves it
     * where its last transaction that committed did, so a retry resumes after that part rather than writing it again
     * (and the result still counts it).
     */
    public static final class Progress<T> {
        private int done;
        private final ApplyResult.Total applied = new ApplyResult.Total();
        private final List<Refused<T>> refused = new ArrayList<>();

        /** How many items, from the first, are done. */
        public int done() {
            return done;
        }

        Isolated<T> isolated() {
            return new Isolated<>(applied.result(), List.copyOf(refused));
        }
    }

    /**
     * @param isolateAnyRefusal also bisect a refusal that may be the database's ({@code RETRY_THEN_ISOLATE}): the
     *                          caller retried the same batch and it persisted
     * @param writable          given the refusal, throws when the database does not take a write at all (no
     *                          privilege, no table, a full NOTIFY queue for a {@code 54000}): run before the first such
     *                          row is set aside, and before every row refused with {@code 54000}
     * @param chunks            how many rows one transaction writes at most, shrunk by statement timeouts
     * @param largestBisected   a refused part larger than this is split into parts of this size rather than halves
     * @param stop              checked before each transaction once the batch is being isolated: true ends the
     *                          isolation ({@link Stopped}) — a deadline passed, the application stopping
     * @param takesARow         given the cases of the rows refused, throws when the database does not take a row it
     *                          demonstrably took under today's checks (the case the writer last committed, rewritten
     *                          with its own values, rolled back), and returns false when there is no such row to probe:
     *                          run once the first rows of an isolation were all refused alike, to tell a refusal of
     *                          every row from rows each refused for itself
     */
    public record Options(boolean isolateAnyRefusal, Consumer<RuntimeException> writable, Chunks chunks, int largestBisected,
                          BooleanSupplier stop, Predicate<List<UUID>> takesARow) {

        /**
         * A thousand rows: a part that size costs about what a round trip does, and starting the bisection there
         * makes finding the refused rows of a backlog batch cost about three writes of it rather than one per
         * level (BENCHMARKS.md, "Isolating refused rows").
         */
        public static final int LARGEST_BISECTED = 1_000;

        /** Isolates only refusals of the rows' data, in transactions as large as the batch. */
        public static final Options DATA_ONLY = new Options(false, refusal -> { }, Chunks.unlimited(), LARGEST_BISECTED);

        /** Options of a caller that never stops an isolation. */
        public Options(boolean isolateAnyRefusal, Consumer<RuntimeException> writable, Chunks chunks, int largestBisected) {
            this(isolateAnyRefusal, writable, chunks, largestBisected, () -> false, refusedCases -> true);
        }

        public Options {
            if (largestBisected < 2) {
                throw new IllegalArgumentException("largestBisected must be at least 2, was " + largestBisected);
            }
        }
    }

    private BatchIsolation() {
    }

    /** Isolates the refusals of the rows' data ({@link Options#DATA_ONLY}). */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<T>, ApplyResult> oneTransaction) {
        return apply(items, update, oneTransaction, Options.DATA_ONLY);
    }

    /**
     * @param items          what to write, in order
     * @param update         each item's update
     * @param oneTransaction writes the items it is given (consecutive items, in order) in one transaction (rolled back
     *                       if it throws)
     */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<T>, ApplyResult> oneTransaction, Options options) {
        return apply(items, update, oneTransaction, options, new Progress<>());
    }

    /**
     * As {@link #apply(List, Function, Function, Options)}, from the first item {@code progress} has not done: what
     * it applies and refuses is added to {@code progress}, transaction by transaction, also when it throws.
     *
     * @return everything {@code progress} holds: this attempt's and the earlier ones'
     */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<T>, ApplyResult> oneTransaction, Options options,
                                        Progress<T> progress) {
        int remaining = items.size() - progress.done;
        Run<T> run = new Run<>(update, oneTransaction, options, progress,
                Math.max(1, Math.min(EVERY_ROW_AFTER, remaining)), items.size());
        for (int from = progress.done; from < items.size(); ) {
            int to = (int) Math.min(items.size(), (long) from + options.chunks().rows());
            run.write(items.subList(from, to));
            from = to;
        }
        run.settleSuspects();
        return progress.isolated();
    }

    /** One isolation: what it applied, what it refused, and whether the table was seen to take a write. */
    private static final class Run<T> {
        private final Function<T, AssignmentUpdate> update;
        private final Function<List<T>, ApplyResult> oneTransaction;
        private final Options options;
        private final Progress<T> progress;
        /** Rows refused alike, none taken, that make the refusal the database's ({@link EveryRowRefused}). */
        private final int everyRowAfter;
        private final int items;
        /**
         * Rows refused alone with one SQLSTATE that may be the database's while no row was taken: not yet set aside
         * (nor done), since they may all be the database's. The rows right before the next part written.
         */
        private final List<Refused<T>> suspects = new ArrayList<>();
        private boolean taken;
        /**
         * The probe ran ({@link Options#takesARow}) and did not find every row refused, or there was no row to probe:
         * rows refused in this run are their own.
         */
        private boolean probed;
        private boolean isolating;
        private boolean writableChecked;

        Run(Function<T, AssignmentUpdate> update, Function<List<T>, ApplyResult> oneTransaction,
            Options options, Progress<T> progress, int everyRowAfter, int items) {
            this.update = update;
            this.oneTransaction = oneTransaction;
            this.options = options;
            this.progress = progress;
            this.everyRowAfter = everyRowAfter;
            this.items = items;
        }

        /** The suspects are rows refused for themselves after all: set aside, in order. */
        void settleSuspects() {
            progress.refused.addAll(suspects);
            progress.done += suspects.size();
            suspects.clear();
        }

        /** A row refused alone: set aside, unless it and those before it may be the database's refusal of every row. */
        private void refusedAlone(T item, RuntimeException refusal, DatabaseRejection.Handling handling) {
            Refused<T> refused = new Refused<>(item, DatabaseRejection.refusedAlone(refusal));
            boolean alike = suspects.isEmpty()
                    || suspects.get(0).rejection().sqlState().equals(refused.rejection().sqlState());
            if (taken || probed || handling == DatabaseRejection.Handling.ISOLATE || !alike) {
                settleSuspects();
                progress.refused.add(refused);
                progress.done++;
                return;
            }
            suspects.add(refused);
            if (suspects.size() >= everyRowAfter) {
                boolean probedARow;
                try {
                    probedARow = options.takesARow()
                            .test(suspects.stream().map(s -> update.apply(s.item()).caseId()).toList());
                } catch (RuntimeException notTaken) {
                    if (refusedAlike(notTaken)) {
                        // progress keeps none of the suspects: a retry writes them again
                        EveryRowRefused everyRow = new EveryRowRefused(suspects.size(), refusal);
                        everyRow.addSuppressed(notTaken);
                        throw everyRow;
                    }
                    // not refused exactly as the rows were: it says nothing of them
                    probedARow = true;
                }
                probed = true;
                if (!probedARow) {
                    // no row to probe: the rows are each their own refusal
                    settleSuspects();
                    return;
                }
                // Taken: the suspects were refused for themselves, unless the database's state changed meanwhile (a
                // trigger fixed): each is written alone once more, and only those refused again are set aside.
                List<Refused<T>> again = List.copyOf(suspects);
                suspects.clear();
                for (Refused<T> suspect : again) {
                    try {
                        whole(List.of(suspect.item()));
                    } catch (RuntimeException stillRefused) {
                        DatabaseRejection.Handling second = DatabaseRejection.handling(stillRefused);
                        if (second == DatabaseRejection.Handling.RETRY || second == DatabaseRejection.Handling.SHRINK) {
                            throw stillRefused;
                        }
                        progress.refused.add(new Refused<>(suspect.item(), DatabaseRejection.refusedAlone(stillRefused)));
                        progress.done++;
                    }
                }
            }
        }

        /**
         * Whether the probe was refused exactly as the suspects were: with their SQLSTATE. Anything else (another
         * SQLSTATE, a lock or statement timeout, a deadlock, its row silently not written) leaves the database's state
         * unknown, and the suspects are each their own refusal.
         */
        private boolean refusedAlike(RuntimeException notTaken) {
            return DatabaseRejection.sqlException(notTaken)
                    .map(sql -> suspects.get(0).rejection().sqlState().equals(sql.getSQLState()))
                    .orElse(false);
        }

        /** Ends the isolation when the caller stops: no transaction more. */
        private void stopIfAsked() {
            if (isolating && options.stop().getAsBoolean()) {
                throw new Stopped(progress.done, items);
            }
        }

        void write(List<T> items) {
            if (items.isEmpty()) {
                return;
            }
            try {
                whole(items);
            } catch (RuntimeException e) {
                failed(items, e);
            }
        }

        /** Writes {@code items} in one transaction, or throws. */
        private void whole(List<T> items) {
            stopIfAsked();
            ApplyResult applied = oneTransaction.apply(items);
            // parts are written in the batch's order, so the items done are always a prefix of it: the suspects
            // came right before this part, and a database that took it refused them for themselves
            taken = true;
            settleSuspects();
            progress.applied.add(applied);
            progress.done += items.size();
            options.chunks().written(items.size());
        }

        /** {@code items} failed as a whole with {@code e}: isolate what it refused, or throw. */
        private void failed(List<T> items, RuntimeException e) {
            DatabaseRejection.Handling handling = DatabaseRejection.handling(e);
            boolean isolate = handling == DatabaseRejection.Handling.ISOLATE
                    || handling == DatabaseRejection.Handling.RETRY_THEN_ISOLATE && options.isolateAnyRefusal();
            if (handling == DatabaseRejection.Handling.SHRINK && items.size() > 1 && options.chunks().adapts) {
                options.chunks().timedOut(items.size());
            } else if (!isolate) {
                throw e;
            }
            isolating = true;
            stopIfAsked();
            if (items.size() == 1) {
                RuntimeException refusal = e;
                if (handling != DatabaseRejection.Handling.ISOLATE) {
                    checkWritable(e);
                    if (DatabaseRejection.mayBeTheNotifyQueue(e)) {
                        // the probe committed a notification just now: the row is refused only if it fails again
                        try {
                            whole(items);
                            return;
                        } catch (RuntimeException again) {
                            DatabaseRejection.Handling second = DatabaseRejection.handling(again);
                            if (second == DatabaseRejection.Handling.RETRY || second == DatabaseRejection.Handling.SHRINK) {
                                throw again;
                            }
                            refusal = again;
                        }
                    }
                }
                refusedAlone(items.get(0), refusal, handling);
                return;
            }
            // Halves, or parts of at most largestBisected rows: bisecting a backlog batch from its full size
            // rewrites it once per level until the parts are smaller than the gaps between refused rows.
            int part = items.size() > options.largestBisected() ? options.largestBisected() : (items.size() + 1) / 2;
            if (part * 2 >= items.size() && handling != DatabaseRejection.Handling.SHRINK) {
                // Halves of a refused part: when the first is written whole, the refusal is in the second, which
                // is then split without being written whole (a round trip saved per level of the bisection).
                List<T> second = items.subList(part, items.size());
                try {
                    whole(items.subList(0, part));
                } catch (RuntimeException firstFailed) {
                    failed(items.subList(0, part), firstFailed);
                    write(second);
                    return;
                }
                if (second.size() > 1) {
                    failed(second, e);
                } else {
                    write(second);
                }
                return;
            }
            for (int from = 0; from < items.size(); from += part) {
                write(items.subList(from, Math.min(items.size(), from + part)));
            }
        }

        /**
         * A row is set aside for a refusal that may be the database's only while the table takes a write at all; a
         * {@code 54000} is probed again every time (the NOTIFY queue fills and empties within a pass).
         */
        private void checkWritable(RuntimeException refusal) {
            if (writableChecked && !DatabaseRejection.mayBeTheNotifyQueue(refusal)) {
                return;
            }
            try {
                options.writable().accept(refusal);
            } catch (RuntimeException notWritable) {
                refusal.addSuppressed(notWritable);
                throw refusal;
            }
            writableChecked = true;
        }
    }

    /**
     * How many rows one transaction writes at most: unlimited until a statement or transaction timeout, then half
     * the rows that timed out, doubling again per batch written once {@link #GROW_BACK_AFTER_NANOS} passed without a
     * timeout. One per thread of a writer (decision 48): a thread whose statements are slow does not shrink another's.
     */
    public static final class Chunks {

        /** A minute: a backlog keeps the size that works, a projector back to live events grows back. */
        static final long GROW_BACK_AFTER_NANOS = 60_000_000_000L;

        private final boolean adapts;
        private volatile int rows = Integer.MAX_VALUE;
        private volatile long timedOutAt;

        private Chunks(boolean adapts) {
            this.adapts = adapts;
        }

        /** Shrinks on a timeout, and grows back. */
        public static Chunks adaptive() {
            return new Chunks(true);
        }

        /** Never limits: a timeout is thrown like any failure of the database's state. */
        public static Chunks unlimited() {
            return new Chunks(false);
        }

        public int rows() {
            return rows;
        }

        synchronized void timedOut(int size) {
            rows = Math.max(1, Math.min(rows, size / 2));
            timedOutAt = System.nanoTime();
        }

        void written(int size) {
            if (adapts && rows != Integer.MAX_VALUE && size >= rows
                    && System.nanoTime() - timedOutAt > GROW_BACK_AFTER_NANOS) {
                synchronized (this) {
                    rows = rows > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE : rows * 2;
                }
            }
        }
    }
}
