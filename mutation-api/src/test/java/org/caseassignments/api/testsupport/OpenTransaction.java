package org.caseassignments.api.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction on its own connection and thread that stays open until the test commits it: to hold
 * row locks at a chosen moment, or to run the projector's apply and watch it wait. The work may block
 * (on a lock someone else holds); {@link #awaitWork()} waits for it to finish.
 *
 * <pre>{@code
 * try (OpenTransaction reassignment = OpenTransaction.begin(ds, jdbc -> new AssignmentWriter(jdbc).apply(...))) {
 *     reassignment.awaitWork();   // its locks are held now
 *     ...
 *     reassignment.commit();
 * }
 * }</pre>
 */
public final class OpenTransaction implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch workDone = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<Void> finished;
    private volatile int pid;
    private volatile boolean commit;

    private OpenTransaction(DataSource dataSource, Consumer<JdbcTemplate> work) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        finished = CompletableFuture.runAsync(() -> transactions.executeWithoutResult(status -> {
            pid = jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class);
            started.countDown();
            work.accept(jdbc);
            workDone.countDown();
            await(release, "the test to end the transaction");
            if (!commit) {
                status.setRollbackOnly();
            }
        }), runnable -> new Thread(runnable, "open-transaction").start());
        finished.whenComplete((ignored, failure) -> {
            started.countDown();
            workDone.countDown();
        });
        await(started, "the transaction to start");
    }

    /** Opens a transaction and starts {@code work} in it; returns once the transaction runs, not when the work is done. */
    public static OpenTransaction begin(DataSource dataSource, Consumer<JdbcTemplate> work) {
        return new OpenTransaction(dataSource, work);
    }

    /** The backend process id of the transaction's connection, as {@code pg_stat_activity} and {@code pg_locks} show it. */
    public int pid() {
        return pid;
    }

    /** Waits until the work has run (it holds its locks from then on); rethrows its failure. */
    public OpenTransaction awaitWork() {
        await(workDone, "the work of the open transaction");
        if (finished.isCompletedExceptionally()) {
            finished.join();
        }
        return this;
    }

    public void commit() {
        end(true);
    }

    public void rollback() {
        end(false);
    }

    @Override
    public void close() {
        if (release.getCount() > 0) {
            end(false);
        }
    }

    private void end(boolean commit) {
        this.commit = commit;
        release.countDown();
        try {
            finished.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the open transaction failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the open transaction did not end within " + WAIT);
        }
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("waited " + WAIT + " for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
