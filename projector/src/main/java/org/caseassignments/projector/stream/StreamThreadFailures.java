package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The stream threads Kafka Streams replaced after an uncaught failure: counted
 * ({@code case_assignments.stream_threads.replaced}), the last one kept, for the reason readiness gives, and the times of
 * the recent ones, for liveness ({@link #within}): only those within the window, pruned at each replacement too.
 */
final class StreamThreadFailures {

    private record Failure(Instant at, String thread, String error) {
    }

    private final Counter replaced;
    private final Clock clock;
    private final Duration window;
    private final Deque<Instant> recent = new ArrayDeque<>();
    private volatile Failure last;

    /** @param window how long a replacement is kept for {@link #within}: at most as many as fell within it */
    StreamThreadFailures(MeterRegistry registry, Clock clock, Duration window) {
        this.replaced = Counter.builder("case_assignments.stream_threads.replaced")
                .description("stream threads replaced after an uncaught failure; their tasks resume from their last commit")
                .tag("source", "projector").register(registry);
        this.clock = clock;
        this.window = window;
    }

    void replaced(Throwable error) {
        replaced.increment();
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        Instant now = clock.instant();
        last = new Failure(now, Thread.currentThread().getName(),
                cause.getClass().getSimpleName() + ": " + cause.getMessage());
        synchronized (recent) {
            recent.addLast(now);
            forgetBefore(now.minus(window));
        }
    }

    /** Replacements in the last {@code window}; older ones are forgotten. */
    int within(Duration window) {
        synchronized (recent) {
            forgetBefore(clock.instant().minus(window));
            return recent.size();
        }
    }

    /** Replacement times kept: those within the window, once the last replacement or look pruned the older. */
    int kept() {
        synchronized (recent) {
            return recent.size();
        }
    }

    private void forgetBefore(Instant after) {
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(after)) {
            recent.removeFirst();
        }
    }

    /** The last failure, or nothing when no thread failed. */
    String lastFailure() {
        Failure failure = last;
        return failure == null ? "none" : failure.at() + " (" + failure.thread() + "): " + failure.error();
    }

    long replacements() {
        return (long) replaced.count();
    }

    /** The last thread failure since {@code since}, or what to look at when there was none. */
    String describe(Instant since) {
        Failure failure = last;
        if (failure != null && !failure.at().isBefore(since)) {
            return "stream threads replaced " + replacements() + " times in all, last at " + failure.at() + " ("
                    + failure.thread() + "): " + failure.error();
        }
        return "no stream thread failed meanwhile: see projectionSink and projectionCommits, and the log";
    }
}
