package org.caseassignments.store;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the threads writing through one {@link BatchWriter} are doing, for a health check to read: per thread, the
 * failing attempts at its current batch (since when, how many, the last error) and since when it has been in one
 * transaction of a batch's write (or in the pause after a failed attempt); and when a batch was last written. The
 * writer keeps it on the thread that writes; a reader asks it, and it calls no one. (Not final, so that the store's
 * own tests can watch what a writer tells it; only the store constructs one.)
 */
public class WriterHealth {

    private static final Logger log = LoggerFactory.getLogger(WriterHealth.class);

    /** A thread's attempts at its batch have been failing since {@code since}; {@code error} is the last one's cause. */
    public record Failing(Instant since, int attempts, String error) {
    }

    private final Clock clock;
    /** Whether the start and the end of each failing streak are logged (the projector's writer; not a job's). */
    private final boolean logged;
    private final Map<String, Failing> failing = new ConcurrentHashMap<>();
    private final Map<String, Instant> writing = new ConcurrentHashMap<>();
    private volatile Instant lastWrittenAt;

    WriterHealth(Clock clock, boolean logged) {
        this.clock = clock;
        this.logged = logged;
    }

    /** The health of a writer that runs until the application stops: each failing streak is logged once, and its end. */
    public static WriterHealth watched(Clock clock) {
        return new WriterHealth(clock, true);
    }

    /** The health of a job's writer, which throws what it does not retry: nothing logged. */
    static WriterHealth unwatched() {
        return new WriterHealth(Clock.systemUTC(), false);
    }

    /** The threads whose current batch has failed at least once, by thread name. */
    public Map<String, Failing> failing() {
        return Map.copyOf(failing);
    }

    /** The threads writing a batch, by thread name, with when their current transaction (or pause) began. */
    public Map<String, Instant> writing() {
        return Map.copyOf(writing);
    }

    /** When a batch was last written, or null. */
    public Instant lastWrittenAt() {
        return lastWrittenAt;
    }

    /** The calling thread begins writing a batch. */
    public void began() {
        writing.put(Thread.currentThread().getName(), clock.instant());
    }

    /**
     * One transaction of the calling thread's batch ended: its clock starts again, so a batch written in many
     * transactions (halves after a statement timeout, bisection of a refused row) is bounded per transaction.
     */
    public void transactionEnded() {
        writing.replace(Thread.currentThread().getName(), clock.instant());
    }

    /** The calling thread's attempt failed transiently; the next begins after the backoff. */
    public void failed(RuntimeException error) {
        String thread = Thread.currentThread().getName();
        writing.replace(thread, clock.instant());
        Throwable cause = rootCause(error);
        String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        Failing streak = failing.compute(thread, (name, earlier) -> earlier == null
                ? new Failing(clock.instant(), 1, message)
                : new Failing(earlier.since(), earlier.attempts() + 1, message));
        if (logged && streak.attempts() == 1) {
            log.warn("Projection sink cannot apply a batch; retrying it with backoff and committing nothing "
                    + "until it succeeds: {}", message);
        }
    }

    /** The calling thread's batch committed (its refused rows set aside). */
    public void written(int events) {
        Failing ended = failing.remove(Thread.currentThread().getName());
        if (logged && ended != null) {
            log.warn("Projection sink recovered: applied a batch of {} records after {} failed attempts since {}",
                    events, ended.attempts(), ended.since());
        }
        lastWrittenAt = clock.instant();
    }

    /** The calling thread is done with its batch, written or not. */
    public void ended() {
        writing.remove(Thread.currentThread().getName());
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
