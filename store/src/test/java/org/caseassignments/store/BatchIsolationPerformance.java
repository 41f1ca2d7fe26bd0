package org.caseassignments.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.caseassignments.testkit.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Opt-in benchmark (not a test): how long finding the refused rows of a batch takes, in transactions (round trips)
 * and wall time (and the part of it spent in the transactions: the rest is the isolation's own work), when the
 * bisection starts from halves of the whole batch and when it starts from parts of
 * {@link BatchIsolation.Options#LARGEST_BISECTED} rows; next to one write of the same batch with no refused row.
 * Each scenario runs on a fresh database, refused rows placed at random. By default a CHECK constraint refuses
 * them, as PostgreSQL refuses a row for its data: the statement stops at the first refused row. With
 * {@code -Drefuse=after-trigger} an {@code AFTER} row trigger refuses them (same SQLSTATE class), which PostgreSQL
 * runs once the statement has written all its rows: every refused write costs its whole part. See BENCHMARKS.md,
 * "Isolating refused rows", for the command and results.
 *
 * <p>Arguments: pairs of {@code rows:refused}, default {@code 10000:1 200000:100}. System properties {@code seed}
 * (26) and {@code refuse} ({@code check} or {@code after-trigger}).
 */
public final class BatchIsolationPerformance {

    public static void main(String[] args) {
        String[] scenarios = args.length > 0 ? args : new String[] {"10000:1", "200000:100"};
        Random random = new Random(Long.getLong("seed", 26));
        System.out.printf("%-10s %-8s %-22s %12s %14s %12s %18s%n", "rows", "refused", "bisection starts at",
                "transactions", "rows written", "wall ms", "in transactions ms");
        for (String scenario : scenarios) {
            int rows = Integer.parseInt(scenario.split(":")[0]);
            int refused = Integer.parseInt(scenario.split(":")[1]);
            List<AssignmentUpdate> batch = batch(random, rows, refused);
            run(rows, 0, "(no refused row)", clean(batch), Integer.MAX_VALUE);
            run(rows, refused, "halves of the batch", batch, Integer.MAX_VALUE);
            run(rows, refused, "parts of " + BatchIsolation.Options.LARGEST_BISECTED, batch,
                    BatchIsolation.Options.LARGEST_BISECTED);
        }
    }

    private static void run(int rows, int refused, String label, List<AssignmentUpdate> batch, int largestBisected) {
        TestDatabase db = TestDatabase.migrated();
        JdbcTemplate jdbc = db.jdbc();
        if ("after-trigger".equals(System.getProperty("refuse", "check"))) {
            jdbc.execute("""
                    CREATE FUNCTION benchmark_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF NEW.assigned_worker_sub = 'poison' THEN
                            RAISE EXCEPTION 'refused' USING ERRCODE = '23514';
                        END IF;
                        RETURN NULL;
                    END $$""");
            jdbc.execute("""
                    CREATE TRIGGER benchmark_refuse AFTER INSERT OR UPDATE ON case_assignments
                       FOR EACH ROW EXECUTE FUNCTION benchmark_refuse()""");
        } else {
            jdbc.execute("ALTER TABLE case_assignments ADD CONSTRAINT benchmark_refuse CHECK (assigned_worker_sub <> 'poison')");
        }
        AssignmentWriter writer = new AssignmentWriter(jdbc);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));
        AtomicInteger transactions = new AtomicInteger();
        AtomicLong written = new AtomicLong();
        AtomicLong inTransactions = new AtomicLong();
        BatchIsolation.Options options = new BatchIsolation.Options(false, refusal -> { }, BatchIsolation.Chunks.unlimited(),
                largestBisected);
        long start = System.nanoTime();
        BatchIsolation.Isolated<AssignmentUpdate> isolated = BatchIsolation.apply(batch, Function.identity(), updates -> {
            transactions.incrementAndGet();
            written.addAndGet(updates.size());
            long begun = System.nanoTime();
            try {
                return transaction.execute(status -> writer.apply(updates));
            } finally {
                inTransactions.addAndGet(System.nanoTime() - begun);
            }
        }, options);
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (isolated.refused().size() != refused) {
            throw new IllegalStateException("expected " + refused + " refused rows, found " + isolated.refused().size());
        }
        System.out.printf("%,-10d %-8d %-22s %,12d %,14d %,12d %,18d%n", rows, refused, label, transactions.get(),
                written.get(), millis, inTransactions.get() / 1_000_000);
    }

    /** {@code rows} new cases in case-id order (as the writers send them), {@code refused} of them refused. */
    private static List<AssignmentUpdate> batch(Random random, int rows, int refused) {
        List<AssignmentUpdate> batch = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            batch.add(AssignmentUpdate.changed(new UUID(random.nextLong(), random.nextLong()), "w-" + i, "s", 1));
        }
        batch.sort((a, b) -> a.caseId().compareTo(b.caseId()));
        for (int poisoned = 0; poisoned < refused; ) {
            int at = random.nextInt(rows);
            if (!batch.get(at).assignedWorkerSub().equals("poison")) {
                batch.set(at, AssignmentUpdate.changed(batch.get(at).caseId(), "poison", "s", 1));
                poisoned++;
            }
        }
        return batch;
    }

    private static List<AssignmentUpdate> clean(List<AssignmentUpdate> batch) {
        return batch.stream().map(u -> u.assignedWorkerSub().equals("poison")
                ? AssignmentUpdate.changed(u.caseId(), "w-clean", "s", 1) : u).toList();
    }
}
