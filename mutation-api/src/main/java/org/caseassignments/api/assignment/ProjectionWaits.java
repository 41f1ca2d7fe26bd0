package org.caseassignments.api.assignment;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Requests waiting for the projection of a case to reach a revision (decisions 32 and 39). A waiter is a future
 * in a map, not a thread or a connection, admitted only within the caps ({@link WaiterAdmission}). A
 * {@link ProjectionListener} hears each commit of the projector that moved a case and the waited-for cases are then
 * read in one query, whose rows answer every waiter they reach: N waiters of a case cost one read, not N. The same
 * read runs every {@code api.assignment.recheck-interval} on a thread of its own while anyone waits, whatever the
 * listener does, so a lost notification or a hung listener delays an answer by one interval at most. A waiter not
 * reached in time completes empty. Answers run on a small executor, in the logging context (MDC) of the request
 * that waits, which is cleared after each.
 */
@Component
class ProjectionWaits implements SmartLifecycle {

    static final String WAITERS_METRIC = "api.projection.waiters";
    static final String REFUSED_METRIC = "api.projection.waiters.refused";
    static final String READS_METRIC = "api.projection.waiters.reads";

    private static final Logger log = LoggerFactory.getLogger(ProjectionWaits.class);

    /** One waiting request: the revision it wants, who holds it, and its answer (the read that reached it). */
    private record Waiter(long minRevision, WaiterAdmission.Holder holder, boolean unknownCase,
                          CompletableFuture<Optional<ProjectedAssignment>> reached) {
    }

    /**
     * An admitted wait.
     *
     * @param answer  the projection as read when it reached the revision, on the answers' executor; empty when the
     *                wait ended first (its time, {@link #release}, the application stopping)
     * @param release ends the wait now, empty (its client went away); harmless once it has ended
     */
    record Wait(CompletableFuture<Optional<ProjectedAssignment>> answer, Runnable release) {
    }

    private final Map<UUID, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final CaseAssignments assignments;
    private final WaiterAdmission admission;
    private final Duration recheck;
    private final Map<WaiterAdmission.Refusal, Counter> refused = new EnumMap<>(WaiterAdmission.Refusal.class);
    private final Map<String, Counter> reads = new HashMap<>();
    private final ProjectionListener listener;
    private final ExecutorService answers = Executors.newFixedThreadPool(4, daemon("projection-wait-answers"));
    private final ScheduledExecutorService timeouts =
            Executors.newSingleThreadScheduledExecutor(daemon("projection-wait-timeouts"));
    private final ScheduledExecutorService rechecks =
            Executors.newSingleThreadScheduledExecutor(daemon("projection-wait-recheck"));
    private volatile boolean running;

    ProjectionWaits(CaseAssignments assignments, ProjectionListener.Connections connections,
                    AssignmentProperties properties, MeterRegistry meters) {
        this.assignments = assignments;
        this.admission = new WaiterAdmission(properties.maxWaiters(), properties.maxWaitersPerSubject(),
                properties.unknownCaseWaitersPerSubject());
        this.recheck = properties.recheckInterval();
        // registered up front, so an alert or a panel sees zero, not no series, before the first refusal or read
        for (WaiterAdmission.Refusal refusal : WaiterAdmission.Refusal.values()) {
            refused.put(refusal, Counter.builder(REFUSED_METRIC).description("Requests refused a wait for the "
                    + "projection, by the bound that refused them").tag("reason", refusal.tag()).register(meters));
        }
        for (String trigger : List.of("registration", "commit", "recheck")) {
            reads.put(trigger, Counter.builder(READS_METRIC).description("Reads of the waited-for cases' projection "
                    + "rows, one query each, by what started them").tag("trigger", trigger).register(meters));
        }
        // between notifications the listener probes its connection: as often as the recheck, and within its timeout
        Duration poll = recheck.compareTo(properties.listenerTimeout()) < 0 ? recheck : properties.listenerTimeout();
        this.listener = new ProjectionListener(connections, poll, () -> checkAll("commit"));
        Gauge.builder(WAITERS_METRIC, admission, WaiterAdmission::held)
                .description("Requests waiting for the projection to reach a revision (min_revision, "
                        + "Min-Assignment-Revision), waited reads and held writes together")
                .register(meters);
    }

    /**
     * Admits a wait for {@code caseId} to reach {@code minRevision}, for at most {@code wait}, and answers it with the
     * projection as read when it did. Never blocks the caller.
     *
     * @param unknownCase whether the projection does not know the case: such a wait could not be authorized, and
     *                    counts against the holder's smaller allowance
     * @throws TooManyWaiters    429 when this instance, or this holder, holds as many waits as allowed
     * @throws ProjectionBehind 409 at once, not waiting, when the holder's allowance for unknown cases is used
     */
    Wait await(UUID caseId, long minRevision, Duration wait, WaiterAdmission.Holder holder, boolean unknownCase) {
        Optional<WaiterAdmission.Refusal> refusal = admission.admit(holder, unknownCase);
        if (refusal.isPresent()) {
            refused.get(refusal.get()).increment();
            throw refusal.get() == WaiterAdmission.Refusal.UNKNOWN_CASE
                    ? new ProjectionBehind(caseId, null, minRevision, Duration.ZERO) : new TooManyWaiters(refusal.get());
        }
        Waiter waiter = new Waiter(minRevision, holder, unknownCase, new CompletableFuture<>());
        // added within the map's atomic update of the case, so that a last waiter leaving at the same moment cannot
        // remove the set this one joins
        waiting.compute(caseId, (id, waiters) -> {
            Set<Waiter> joined = waiters == null ? ConcurrentHashMap.newKeySet() : waiters;
            joined.add(waiter);
            return joined;
        });
        ScheduledFuture<?> timeout;
        try {
            timeout = timeouts.schedule(() -> waiter.reached().complete(Optional.empty()), wait.toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopping) {
            timeout = null; // stopping: answered at once below, as behind
        }
        ScheduledFuture<?> cancel = timeout;
        waiter.reached().whenComplete((reached, error) -> {
            if (cancel != null) {
                cancel.cancel(false);
            }
            waiting.computeIfPresent(caseId, (id, waiters) -> {
                waiters.remove(waiter);
                return waiters.isEmpty() ? null : waiters;
            });
            admission.release(holder, unknownCase);
        });
        Wait admitted = new Wait(waiter.reached().thenApplyAsync(reached -> reached, inContextOf(MDC.getCopyOfContextMap())),
                () -> waiter.reached().complete(Optional.empty()));
        try {
            // A commit between the caller's read and this registration was announced before anyone listened for it.
            check(Set.of(caseId), "registration");
        } catch (RuntimeException e) {
            admitted.release().run();
            throw e;
        }
        if (!running || cancel == null) {
            admitted.release().run();
        }
        return admitted;
    }

    /** Reads the given cases in one query and answers every waiter that read reaches with it. */
    private void check(Set<UUID> cases, String trigger) {
        if (cases.isEmpty()) {
            return;
        }
        List<ProjectedAssignment> rows = assignments.readAll(cases);
        reads.get(trigger).increment();
        for (ProjectedAssignment read : rows) {
            Set<Waiter> waiters = waiting.get(read.caseId());
            if (waiters != null) {
                waiters.stream().filter(w -> read.revision() >= w.minRevision())
                        .forEach(w -> w.reached().complete(Optional.of(read)));
            }
        }
    }

    private void checkAll(String trigger) {
        try {
            check(Set.copyOf(waiting.keySet()), trigger);
        } catch (RuntimeException e) {
            log.warn("Reading the revisions of {} waited-for cases failed: {}", waiting.size(), e.getMessage());
        }
    }

    /**
     * The answers' executor, running each task in the logging context of the request that waits and leaving the
     * thread's context empty after it, so no line logged there names another request's caller or case.
     */
    private Executor inContextOf(Map<String, String> context) {
        return task -> answers.execute(() -> {
            if (context == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(context);
            }
            try {
                task.run();
            } finally {
                MDC.clear();
            }
        });
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void start() {
        running = true;
        listener.start();
        rechecks.scheduleWithFixedDelay(() -> {
            if (!waiting.isEmpty()) {
                checkAll("recheck");
            }
        }, recheck.toNanos(), recheck.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Every waiter is answered (not reached) before the web server's graceful shutdown waits for its requests. */
    @Override
    public void stop() {
        running = false;
        listener.stop();
        rechecks.shutdownNow();
        waiting.values().forEach(waiters -> waiters.forEach(w -> w.reached().complete(Optional.empty())));
        timeouts.shutdownNow();
        answers.shutdown();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
