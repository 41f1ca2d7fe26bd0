package org.caseassignments.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

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
 *       {@link Progress}, the retry resumes after the parts that committed before it, and its result counts them.</li>
 * </ul>
 * Halves are written in the batch's order, one after the other, so each transaction keeps the writer's lock order
 * and later rows of a case still follow earlier ones. The one implementation used by the projector, the replay and
 * the snapshot load.
 */
public final class BatchIsolation {

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
     */
    public record Options(boolean isolateAnyRefusal, Consumer<RuntimeException> writable, Chunks chunks, int largestBisected) {

        /**
         * A thousand rows: a part that size costs about what a round trip does, and starting the bisection there
         * makes finding the refused rows of a backlog batch cost about three writes of it rather than one per
         * level (BENCHMARKS.md, "Isolating refused rows").
         */
        public static final int LARGEST_BISECTED = 1_000;

        /** Isolates only refusals of the rows' data, in transactions as large as the batch. */
        public static final Options DATA_ONLY = new Options(false, refusal -> { }, Chunks.unlimited(), LARGEST_BISECTED);

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
                                        Function<List<AssignmentUpdate>, ApplyResult> oneTransaction) {
        return apply(items, update, oneTransaction, Options.DATA_ONLY);
    }

    /**
     * @param items          what to write, in order
     * @param update         each item's update
     * @param oneTransaction writes the updates it is given in one transaction (rolled back if it throws)
     */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<AssignmentUpdate>, ApplyResult> oneTransaction, Options options) {
        return apply(items, update, oneTransaction, options, new Progress<>());
    }

    /**
     * As {@link #apply(List, Function, Function, Options)}, from the first item {@code progress} has not done: what
     * it applies and refuses is added to {@code progress}, transaction by transaction, also when it throws.
     *
     * @return everything {@code progress} holds: this attempt's and the earlier ones'
     */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<AssignmentUpdate>, ApplyResult> oneTransaction, Options options,
                                        Progress<T> progress) {
        Run<T> run = new Run<>(update, oneTransaction, options, progress);
        for (int from = progress.done; from < items.size(); ) {
            int to = (int) Math.min(items.size(), (long) from + options.chunks().rows());
            run.write(items.subList(from, to));
            from = to;
        }
        return progress.isolated();
    }

    /** One isolation: what it applied, what it refused, and whether the table was seen to take a write. */
    private static final class Run<T> {
        private final Function<T, AssignmentUpdate> update;
        private final Function<List<AssignmentUpdate>, ApplyResult> oneTransaction;
        private final Options options;
        private final Progress<T> progress;
        private boolean writableChecked;

        Run(Function<T, AssignmentUpdate> update, Function<List<AssignmentUpdate>, ApplyResult> oneTransaction,
            Options options, Progress<T> progress) {
            this.update = update;
            this.oneTransaction = oneTransaction;
            this.options = options;
            this.progress = progress;
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
            List<AssignmentUpdate> updates = new ArrayList<>(items.size());
            items.forEach(item -> updates.add(update.apply(item)));
            progress.applied.add(oneTransaction.apply(updates));
            // parts are written in the batch's order, so the items done are always a prefix of it
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
                progress.refused.add(new Refused<>(items.get(0), DatabaseRejection.refusedAlone(refusal)));
                progress.done++;
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
