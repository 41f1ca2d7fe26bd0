package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;

/**
 * Since when each task of this instance holds events whose input offsets are not committed, for health
 * and for the pending gauges. Kafka Streams says nothing when a commit succeeds, so a batch written in
 * PostgreSQL counts as committed only once a commit was prepared after it (the store's {@link BeforeCommitHook} hook
 * ran) and the same task instance then does anything (takes an event, is punctuated, checkpoints): a failed
 * commit closes the task before that. A batch written between commits, while events are live, stays
 * uncommitted until then, however much the task does meanwhile. A task closed with
 * events unconfirmed keeps its age, so a task whose commit fails over and over (its thread replaced, the
 * same events read again each time) grows old here instead of looking fresh after every restart; it is
 * forgotten once it has been closed for {@code forgetClosedAfter} (its partitions went to another instance).
 */
public final class UncommittedWork {

    /** One task's uncommitted work, updated by its stream thread and read by health and the gauges. */
    final class Task {
        private final String id;
        private final List<Meter> meters = new ArrayList<>();
        private volatile long takenSince;
        private volatile long writtenSince;
        private volatile long flushedSince;
        private volatile int pendingCases;
        private volatile long pendingBytes;
        private volatile long closedAt;

        private Task(String id) {
            this.id = id;
        }

        /** An event was taken; any batch written before the last prepared commit was committed. */
        void taken(int cases, long bytes) {
            flushedSince = 0;
            if (takenSince == 0) {
                takenSince = clock.millis();
            }
            pendingCases = cases;
            pendingBytes = bytes;
        }

        /** The task did something (a punctuation, a checkpoint): the last prepared commit succeeded. */
        void confirmed() {
            flushedSince = 0;
        }

        /** The pending batch is in PostgreSQL ahead of a commit: its offsets commit at a later one. */
        void written() {
            writtenSince = oldest(writtenSince, takenSince);
            takenSince = 0;
            pendingCases = 0;
            pendingBytes = 0;
        }

        /**
         * A commit was prepared: what was pending is in PostgreSQL, and with the batches written before it, its
         * offsets commit next.
         */
        void flushed() {
            flushedSince = oldest(flushedSince, oldest(writtenSince, takenSince));
            writtenSince = 0;
            takenSince = 0;
            pendingCases = 0;
            pendingBytes = 0;
        }

        /** The pending batch was discarded: its events will be read again. */
        void discarded() {
            pendingCases = 0;
            pendingBytes = 0;
        }

        /** Epoch milliseconds of the oldest event not known to be committed, or 0. */
        long since() {
            return oldest(flushedSince, oldest(writtenSince, takenSince));
        }

        private void closed() {
            long since = since();
            if (since == 0) {
                forget(this);
            } else {
                uncommittedCloses.increment();
                takenSince = since;
                writtenSince = 0;
                flushedSince = 0;
                pendingCases = 0;
                pendingBytes = 0;
                closedAt = clock.millis();
            }
        }
    }

    /** A task whose oldest uncommitted event is older than the bound. */
    record Stalled(String task, Instant since, Duration age) {
    }

    private final Clock clock;
    private final MeterRegistry registry;
    private final Duration forgetClosedAfter;
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final Counter uncommittedCloses;
    /**
     * Task instances processing now: counted per instance, not per task id, since a task moved to another thread can
     * start processing there before its old instance has closed.
     */
    private final AtomicInteger processing = new AtomicInteger();

    public UncommittedWork(Clock clock, MeterRegistry registry, Duration forgetClosedAfter) {
        this.clock = clock;
        this.registry = registry;
        this.forgetClosedAfter = forgetClosedAfter;
        this.uncommittedCloses = Counter.builder("case_assignments.commit.failures")
                .description("Task instances closed with events whose offsets never committed (a failed commit, a "
                        + "crashed or replaced stream thread, a lost partition): they are read again")
                .register(registry);
        Gauge.builder("case_assignments.tasks.processing", processing, AtomicInteger::get)
                .description("Task instances processing on this projector: they share max-pending-bytes equally")
                .register(registry);
    }

    /** The task's record, taking over the age a previous instance of the task left unconfirmed. */
    Task open(String taskId) {
        return tasks.compute(taskId, (id, earlier) -> {
            if (earlier != null) {
                earlier.closedAt = 0;
                return earlier;
            }
            Task task = new Task(id);
            task.meters.add(Gauge.builder("case_assignments.pending.cases", task, t -> t.pendingCases)
                    .description("Distinct cases a task holds in memory, not yet written to PostgreSQL")
                    .tag("task", id).strongReference(true).register(registry));
            task.meters.add(Gauge.builder("case_assignments.pending.bytes", task, t -> t.pendingBytes)
                    .description("About how much heap a task's pending events hold: the kept events with their "
                            + "records, the revisions set aside for the history, and the table holding them; bounded "
                            + "by its share of max-pending-bytes (the instance's processing tasks together hold at "
                            + "most about that)")
                    .baseUnit("bytes").tag("task", id).strongReference(true).register(registry));
            task.meters.add(TimeGauge.builder("case_assignments.pending.oldest_age", task,
                            java.util.concurrent.TimeUnit.MILLISECONDS, t -> t.since() == 0 ? 0 : clock.millis() - t.since())
                    .description("How long the oldest event a task took has waited for its offsets to commit")
                    .tag("task", id).strongReference(true).register(registry));
            return task;
        });
    }

    /**
     * A task instance began processing (its pending batch was attached to its processor): it takes a share of the byte
     * budget from now on. Standby and restoring tasks never do.
     */
    void startedProcessing() {
        processing.incrementAndGet();
    }

    /** A task instance that began processing stopped (its processor or its store closed); called once per start. */
    void stoppedProcessing() {
        processing.decrementAndGet();
    }

    /**
     * Task instances processing on this instance now, at least 1: they share the byte budget ({@code max-pending-bytes})
     * equally.
     */
    int processingTasks() {
        return Math.max(1, processing.get());
    }

    /** The task instance closed (its state store closed). */
    void close(Task task) {
        task.closed();
    }

    /** Open tasks whose oldest uncommitted event waited longer than {@code bound}, oldest first. */
    List<Stalled> stalled(Duration bound) {
        long now = clock.millis();
        List<Stalled> stalled = new ArrayList<>();
        for (Task task : List.copyOf(tasks.values())) {
            if (task.closedAt != 0 && now - task.closedAt > forgetClosedAfter.toMillis()) {
                forget(task);
                continue;
            }
            long since = task.since();
            // A closed task counts again once it is reopened: its partitions may have gone to another instance.
            if (task.closedAt == 0 && since != 0 && now - since > bound.toMillis()) {
                stalled.add(new Stalled(task.id, Instant.ofEpochMilli(since), Duration.ofMillis(now - since)));
            }
        }
        stalled.sort(Comparator.comparing(Stalled::since));
        return stalled;
    }

    private void forget(Task task) {
        if (tasks.remove(task.id, task)) {
            task.meters.forEach(registry::remove);
        }
    }

    private static long oldest(long a, long b) {
        return a == 0 ? b : b == 0 ? a : Math.min(a, b);
    }
}
