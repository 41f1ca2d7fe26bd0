package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.UUID;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DeadLettersTests {

    /** Kafka's default {@code message.max.bytes}, what a topic created with broker defaults accepts. */
    private static final int LIMIT = 1_048_588;
    private static final Rejection REASON = new Rejection("UNKNOWN_FRAMING", "first byte 0x7B is neither …");
    private static final byte[] KEY = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldKeepASmallRecordWholeWithoutTruncationHeaders() {
        byte[] value = bytes(1_000);

        DeadLetters.Letter letter = letter(KEY, value, new RecordHeaders(), LIMIT);

        assertThat(letter.key()).isEqualTo(KEY);
        assertThat(letter.value()).isEqualTo(value);
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.REASON)).isEqualTo("UNKNOWN_FRAMING");
        assertThat(letter.headers().lastHeader(DeadLetters.TRUNCATED)).isNull();
    }

    @Test
    void shouldCutTheValueOfARecordAtTheTopicLimitToTheLongestPrefixThatFits() throws Exception {
        // Given a value as large as a record with this key can be on a topic of this limit
        int largest = largestValue(KEY, LIMIT);
        byte[] value = bytes(largest);
        RecordHeaders original = new RecordHeaders();
        original.add("traceparent", "00-abc".getBytes(StandardCharsets.UTF_8));

        // When
        DeadLetters.Letter letter = letter(KEY, value, original, LIMIT);

        // Then it fits, and one byte more would not
        assertThat(DeadLetters.size(letter.key(), letter.value(), letter.headers())).isLessThanOrEqualTo(LIMIT);
        assertThat(DeadLetters.size(letter.key(), Arrays.copyOf(value, letter.value().length + 1), letter.headers()))
                .isGreaterThan(LIMIT);
        assertThat(letter.key()).isEqualTo(KEY);
        assertThat(letter.value()).isEqualTo(Arrays.copyOf(value, letter.value().length));
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.TRUNCATED)).isEqualTo("value");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_SIZE)).isEqualTo(Integer.toString(largest));
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_SHA256))
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value)));
        assertThat(DeadLetters.header(letter.headers(), "traceparent")).isEqualTo("00-abc");
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo("41");
    }

    @Test
    void shouldDropOriginalHeadersThenTheKeyWhenTheyAloneLeaveNoRoom() {
        RecordHeaders huge = new RecordHeaders();
        huge.add("blob", bytes(LIMIT));

        DeadLetters.Letter withoutHeaders = letter(KEY, bytes(10), huge, LIMIT);
        DeadLetters.Letter withoutKey = letter(bytes(LIMIT), bytes(10), huge, LIMIT);

        assertThat(DeadLetters.header(withoutHeaders.headers(), DeadLetters.TRUNCATED)).isEqualTo("value,headers");
        assertThat(withoutHeaders.headers().lastHeader("blob")).isNull();
        assertThat(withoutHeaders.value()).hasSize(10);
        assertThat(withoutHeaders.key()).isEqualTo(KEY);
        assertThat(DeadLetters.header(withoutKey.headers(), DeadLetters.TRUNCATED)).isEqualTo("value,headers,key");
        assertThat(withoutKey.key()).isNull();
        assertThat(DeadLetters.header(withoutKey.headers(), DeadLetters.REASON)).isEqualTo("UNKNOWN_FRAMING");
    }

    @Test
    void shouldKeepATombstoneATombstoneWhenCuttingAHugeKey() {
        DeadLetters.Letter letter = letter(bytes(LIMIT), null, new RecordHeaders(), LIMIT);

        assertThat(letter.value()).isNull();
        assertThat(letter.key()).isNull();
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.TRUNCATED)).isEqualTo("key");
        assertThat(letter.headers().lastHeader(DeadLetters.ORIGINAL_SIZE)).isNull();
    }

    @Test
    void shouldFitEveryValueSizeAroundTheLimit() {
        for (int size = LIMIT - 320; size <= LIMIT + 8; size++) {
            DeadLetters.Letter letter = letter(KEY, new byte[size], new RecordHeaders(), LIMIT);
            assertThat(DeadLetters.size(letter.key(), letter.value(), letter.headers())).as("value of %d bytes", size)
                    .isLessThanOrEqualTo(LIMIT);
        }
    }

    private static DeadLetters.Letter letter(byte[] key, byte[] value, RecordHeaders original, int limit) {
        return DeadLetters.letter(new SourceRecord("case.events", 2, 41L, 0L, key, value, original), REASON, limit);
    }

    private static int largestValue(byte[] key, int limit) {
        int size = limit;
        while (DeadLetters.size(key, new byte[size], new RecordHeaders()) > limit) {
            size--;
        }
        return size;
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }
}
