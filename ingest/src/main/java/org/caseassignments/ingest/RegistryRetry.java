package org.caseassignments.ingest;

import java.time.Duration;
import java.util.function.Supplier;

import org.apache.kafka.common.header.Headers;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one retry policy for an unreachable schema registry (the one transient decode failure), used by
 * the projector and the replay: exponential backoff for at most {@code giveUpAfter}, then the failure
 * propagates (the projector's stream thread is replaced and re-reads from its last commit; a replay
 * stops, to be resumed). A good record is never dead-lettered because the registry was down. The bound
 * keeps the projector's stream thread well inside its poll interval.
 */
public record RegistryRetry(Duration initialBackoff, Duration maxBackoff, Duration giveUpAfter) {

    private static final Logger log = LoggerFactory.getLogger(RegistryRetry.class);

    public static final RegistryRetry DEFAULT = new RegistryRetry(Duration.ofMillis(100), Duration.ofSeconds(5),
            Duration.ofMinutes(1));

    /** Reads a record with {@code reader} ({@link CaseEventReader#read(byte[], byte[], Headers)}), retrying as above. */
    public Ingested read(CaseEventReader reader, byte[] key, byte[] value, Headers headers) {
        return call(() -> reader.read(key, value, headers));
    }

    /** Runs {@code read}, retrying as above. */
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
