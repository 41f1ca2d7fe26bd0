package org.caseassignments.api.assignment;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.store.AssignmentWriter;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Requests waiting for the projection of a case to reach a revision (decision 32). A waiter is a future
 * in a map, not a thread or a connection: one listener thread, on one connection of its own outside the
 * pool, hears each commit of the projector that moved a case ({@code LISTEN} on
 * {@link AssignmentWriter#MOVED_CHANNEL}) and then reads the revisions of every waited-for case in one query;
 * the same read runs every {@code api.assignment.recheck-interval} while anyone waits, in case a notification
 * was lost with the listener's connection. A waiter not reached in time completes with false.
 */
@Component
class ProjectionWaits implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProjectionWaits.class);

    private static final String REVISIONS = """
            SELECT case_id, assignment_revision FROM case_assignments WHERE case_id = ANY (?::uuid[])
            """;

    private record Waiter(long minRevision, CompletableFuture<Boolean> reached) {
    }

    private final Map<UUID, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final JdbcTemplate jdbc;
    private final javax.sql.DataSource dataSource;
    private final Duration recheck;
    /** Where a waiter's answer is read and built, so neither the listener nor the timer does it, one after another. */
    private final ExecutorService answers = Executors.newFixedThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "projection-wait-answers");
        thread.setDaemon(true);
        return thread;
    });
    private final ScheduledExecutorService timeouts = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "projection-wait-timeouts");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean running;
    private Thread listener;

    ProjectionWaits(JdbcTemplate jdbc, javax.sql.DataSource dataSource, AssignmentProperties properties,
                    MeterRegistry meters) {
        this.jdbc = jdbc;
        this.dataSource = dataSource;
        this.recheck = properties.recheckInterval();
        Gauge.builder("api.projection.waiters", waiting, map -> map.values().stream().mapToInt(Set::size).sum())
                .description("Requests waiting for the projection to reach a revision (min_revision, "
                        + "Min-Assignment-Revision)")
                .register(meters);
    }

    /**
     * Completes with true once the projection holds {@code caseId} at {@code minRevision} or above, with false
     * when {@code wait} passed first. Never blocks the caller.
     */
    CompletableFuture<Boolean> await(UUID caseId, long minRevision, Duration wait) {
        Waiter waiter = new Waiter(minRevision, new CompletableFuture<>());
        waiting.computeIfAbsent(caseId, id -> ConcurrentHashMap.newKeySet()).add(waiter);
        ScheduledFuture<?> timeout = timeouts.schedule(() -> waiter.reached().complete(false),
                wait.toNanos(), TimeUnit.NANOSECONDS);
        waiter.reached().whenComplete((reached, error) -> {
            timeout.cancel(false);
            waiting.computeIfPresent(caseId, (id, waiters) -> {
                waiters.remove(waiter);
                return waiters.isEmpty() ? null : waiters;
            });
        });
        // A commit between the caller's read and this registration was announced before anyone listened for it.
        check(Set.of(caseId));
        return waiter.reached().thenApplyAsync(reached -> reached, answers);
    }

    /** Reads the given cases' revisions and completes every waiter they reach. */
    private void check(Set<UUID> cases) {
        if (cases.isEmpty()) {
            return;
        }
        List<Waiter> reached = new ArrayList<>();
        jdbc.query(REVISIONS, rs -> {
            UUID caseId = rs.getObject("case_id", UUID.class);
            long revision = rs.getLong("assignment_revision");
            Set<Waiter> waiters = waiting.get(caseId);
            if (waiters != null) {
                waiters.stream().filter(w -> revision >= w.minRevision()).forEach(reached::add);
            }
        }, (Object) cases.stream().map(UUID::toString).toArray(String[]::new));
        reached.forEach(w -> w.reached().complete(true));
    }

    private void listen() {
        while (running) {
            try (Connection connection = listenerConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + AssignmentWriter.MOVED_CHANNEL);
                PGConnection notifications = connection.unwrap(PGConnection.class);
                while (running) {
                    notifications.getNotifications((int) Math.max(1, recheck.toMillis()));
                    checkAll();
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    log.warn("Listening for the projector's commits failed ({}); waiting requests are read again every "
                            + "{} until the listener is back", e.getMessage(), recheck);
                    pauseAndCheck();
                }
            }
        }
    }

    private void checkAll() {
        try {
            check(Set.copyOf(waiting.keySet()));
        } catch (RuntimeException e) {
            log.warn("Reading the revisions of {} waited-for cases failed: {}", waiting.size(), e.getMessage());
        }
    }

    /** While the listener's connection is down, the waiters are still read on the recheck interval. */
    private void pauseAndCheck() {
        try {
            Thread.sleep(recheck.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        checkAll();
    }

    /** A connection of its own, with the pool's settings, so that listening never takes one of the pool's. */
    private Connection listenerConnection() throws SQLException {
        if (dataSource instanceof HikariDataSource hikari) {
            Connection connection = DriverManager.getConnection(hikari.getJdbcUrl(), hikari.getUsername(),
                    hikari.getPassword());
            if (hikari.getConnectionInitSql() != null) {
                try (Statement init = connection.createStatement()) {
                    init.execute(hikari.getConnectionInitSql());
                }
            }
            return connection;
        }
        return dataSource.getConnection();
    }

    @Override
    public void start() {
        running = true;
        listener = new Thread(this::listen, "projection-wait-listener");
        listener.setDaemon(true);
        listener.start();
    }

    @Override
    public void stop() {
        running = false;
        if (listener != null) {
            listener.interrupt();
        }
        waiting.values().forEach(waiters -> waiters.forEach(w -> w.reached().complete(false)));
        timeouts.shutdownNow();
        answers.shutdown();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
