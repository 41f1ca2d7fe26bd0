package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.ingest.Rejection;
import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.junit.jupiter.api.Test;

class RegistryRetryTests {

    private static final Ingested READ = new Ingested.Rejected(new Rejection("X", "read"));
    private final RegistryRetry retry = new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofSeconds(5));

    @Test
    void shouldRetryWhileTheRegistryIsUnreachableAndReturnTheReadOnceItAnswers() {
        AtomicInteger attempts = new AtomicInteger();

        Ingested result = retry.call(() -> {
            if (attempts.incrementAndGet() < 4) {
                throw new EventDecodingException(DecodeFailure.REGISTRY_UNAVAILABLE, "connection refused");
            }
            return READ;
        });

        assertThat(result).isSameAs(READ);
        assertThat(attempts).hasValue(4);
    }

    @Test
    void shouldNotRetryAPermanentFailure() {
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> retry.call(() -> {
            attempts.incrementAndGet();
            throw new EventDecodingException(DecodeFailure.MALFORMED_PAYLOAD, "corrupt");
        })).isInstanceOf(EventDecodingException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void shouldGiveUpAfterItsBoundSoTheStreamThreadIsReplaced() {
        RegistryRetry bounded = new RegistryRetry(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(20));
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> bounded.call(() -> {
            attempts.incrementAndGet();
            throw new EventDecodingException(DecodeFailure.REGISTRY_UNAVAILABLE, "connection refused");
        })).isInstanceOfSatisfying(EventDecodingException.class,
                e -> assertThat(e.failure()).isEqualTo(DecodeFailure.REGISTRY_UNAVAILABLE));
        assertThat(attempts.get()).isGreaterThan(1);
    }
}
