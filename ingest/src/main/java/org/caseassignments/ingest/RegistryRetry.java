package org.caseassignments.projector.stream;

import java.time.Duration;
import java.util.function.Supplier;

import org.caseassignments.ingest.Ingested;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a read while the schema registry is unreachable (the one transient decode failure),
 * with exponential backoff, for at most {@code giveUpAfter}; then the failure propagates, the stream
 * thread is replaced, and it re-reads from its last commit. A good record is never dead-lettered
 * because the registry was down. The bound keeps the stream thread well inside its poll interval.
 */
record RegistryRetry(Duration initialBackoff, Duration maxBackoff, Duration giveUpAfter) {

    private static final Logger log = LoggerFactory.getLogger(RegistryRetry.class);

    static final RegistryRetry DEFAULT = new RegistryRetry(Duration.ofMillis(100), Duration.ofSeconds(5),
            Duration.ofMinutes(1));

    Ingested call(Supplier<Ingested> read) {
        long deadline = System.nanoTime() + giveUpAfter.toNanos();
        long backoff = initialBackoff.toMillis();
        while (true) {
            try {
                return read.get();
            } catch (EventDecodingException e) {
                if (!e.failure().isTransient() || System.nanoTime() + backoff * 1_000_000 > deadline) {
                    throw e;
                }
                log.warn("Schema registry unavailable, retrying in {} ms: {}", backoff, e.getMessage());
                sleep(backoff);
                backoff = Math.min(backoff * 2, maxBackoff.toMillis());
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the schema registry", e);
        }
    }
}
