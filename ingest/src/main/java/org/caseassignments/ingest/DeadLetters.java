package org.caseassignments.ingest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.DatabaseRejection;

/**
 * Builds dead-letter records: the original key and value bytes and the original headers, plus
 * headers saying why and where the record came from. A dead letter always fits: when the original
 * record with those headers would be larger than the producer and the dead-letter topic take, the
 * value is cut to what fits and headers say so, with the original value's size and SHA-256.
 */
public final class DeadLetters {

    public static final String REASON = "dlq.reason";
    public static final String MESSAGE = "dlq.message";
    public static final String SOURCE_TOPIC = "dlq.source.topic";
    public static final String SOURCE_PARTITION = "dlq.source.partition";
    public static final String SOURCE_OFFSET = "dlq.source.offset";
    public static final String FAILED_AT = "dlq.failed.at";
    /** On the dead letter of an event PostgreSQL refused: the SQLSTATE it refused the row with. */
    public static final String SQLSTATE_HEADER = "dlq.sqlstate";
    /** Present only on a cut dead letter: what was cut, comma-separated ({@code value}, {@code headers}, {@code key}). */
    public static final String TRUNCATED = "dlq.truncated";
    /** On a cut dead letter: the original value's size in bytes. */
    public static final String ORIGINAL_SIZE = "dlq.original.size";
    /** On a cut dead letter: the original value's SHA-256, lower-case hex. */
    public static final String ORIGINAL_SHA256 = "dlq.original.sha256";

    private static final String[] NAMES = {REASON, MESSAGE, SOURCE_TOPIC, SOURCE_PARTITION, SOURCE_OFFSET, FAILED_AT,
            TRUNCATED, ORIGINAL_SIZE, ORIGINAL_SHA256};

    private DeadLetters() {
    }

    /** A dead letter as it will be written: key, value and headers, within the size limit it was fitted to. */
    public record Letter(byte[] key, byte[] value, Headers headers) {
    }

    /** The original headers with the dead-letter headers added (any earlier {@code dlq.*} values replaced). */
    public static Headers headers(Headers original, Rejection rejection, String sourceTopic, int partition, long offset) {
        RecordHeaders headers = new RecordHeaders(original == null ? new RecordHeaders().toArray() : original.toArray());
        for (String name : NAMES) {
            headers.remove(name);
        }
        headers.add(REASON, utf8(rejection.code()));
        headers.add(MESSAGE, utf8(rejection.message()));
        headers.add(SOURCE_TOPIC, utf8(sourceTopic));
        headers.add(SOURCE_PARTITION, utf8(Integer.toString(partition)));
        headers.add(SOURCE_OFFSET, utf8(Long.toString(offset)));
        headers.add(FAILED_AT, utf8(Instant.now().toString()));
        return headers;
    }

    /**
     * The dead letter of a record, no larger than {@code maxRecordBytes} as the producer measures a record
     * against its {@code max.request.size} (an upper bound of the batch the broker measures against the
     * topic's {@code max.message.bytes}). Cut only when needed: first the value, then, if the original
     * headers alone leave no room, those, then the key.
     */
    public static Letter letter(SourceRecord source, Rejection rejection, int maxRecordBytes) {
        return letter(source, source.headers(), rejection, maxRecordBytes);
    }

    /**
     * The dead letter of an event PostgreSQL refused: the record as it came in, with {@link #rejection} and the
     * SQLSTATE in {@link #SQLSTATE_HEADER}, cut to {@code maxRecordBytes} like every dead letter.
     */
    public static Letter refused(SourceRecord source, AssignmentUpdate refused, DatabaseRejection rejection,
                                 int maxRecordBytes) {
        RecordHeaders headers = new RecordHeaders(source.headers() == null ? new RecordHeaders().toArray()
                : source.headers().toArray());
        headers.remove(SQLSTATE_HEADER);
        headers.add(SQLSTATE_HEADER, utf8(rejection.sqlState()));
        return letter(source, headers, rejection(refused, rejection), maxRecordBytes);
    }

    /**
     * A refused row as the dead-letter reason: {@code dlq.reason} names the SQLSTATE class, and the message
     * says which case and what PostgreSQL said. The SQLSTATE itself goes in {@link #SQLSTATE_HEADER}.
     */
    public static Rejection rejection(AssignmentUpdate refused, DatabaseRejection rejection) {
        return new Rejection(rejection.reason(), "PostgreSQL refused the assignment of case " + refused.caseId()
                + " at revision " + refused.revision() + " (SQLSTATE " + rejection.sqlState() + "): " + rejection.message());
    }

    private static Letter letter(SourceRecord source, Headers original, Rejection rejection, int maxRecordBytes) {
        byte[] key = source.key();
        byte[] value = source.value();
        Headers whole = headers(original, rejection, source.topic(), source.partition(), source.offset());
        if (size(key, value, whole) <= maxRecordBytes) {
            return new Letter(key, value, whole);
        }
        Letter cut = cut(key, value, whole, false, maxRecordBytes);
        if (cut == null) {
            RecordHeaders ours = new RecordHeaders();
            for (Header header : whole) {
                if (header.key().startsWith("dlq.")) {
                    ours.add(header);
                }
            }
            boolean dropsHeaders = ours.toArray().length < whole.toArray().length;
            if (dropsHeaders) {
                cut = cut(key, value, ours, true, maxRecordBytes);
            }
            if (cut == null) {
                cut = cut(null, value, ours, dropsHeaders, maxRecordBytes);
            }
        }
        if (cut == null) {
            throw new IllegalArgumentException("a dead letter needs more than " + maxRecordBytes + " bytes even without"
                    + " key, value and original headers; the size limit is too small");
        }
        return cut;
    }

    /** A record for the dead-letter topic, keyed like the original so it lands beside its case's other failures. */
    public static ProducerRecord<byte[], byte[]> record(String deadLetterTopic, Letter letter) {
        return new ProducerRecord<>(deadLetterTopic, null, letter.key(), letter.value(), letter.headers());
    }

    /** The log line of a dead letter the broker acknowledged, from the headers it was written with. */
    public static String written(RecordMetadata written, Headers headers) {
        String truncated = header(headers, TRUNCATED);
        return "Dead-lettered " + header(headers, SOURCE_TOPIC) + "-" + header(headers, SOURCE_PARTITION) + "@"
                + header(headers, SOURCE_OFFSET) + " to " + written.topic() + "-" + written.partition() + "@"
                + written.offset() + ": " + header(headers, REASON) + ": " + header(headers, MESSAGE)
                + (truncated == null ? "" : " (too large for the dead-letter topic: cut " + truncated
                        + "; the original value was " + header(headers, ORIGINAL_SIZE) + " bytes, SHA-256 "
                        + header(headers, ORIGINAL_SHA256) + ")");
    }

    /** A header's value as text, or null when absent. */
    public static String header(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /**
     * The record with the truncation headers and the longest prefix of the value that fits, or null if none
     * does. A null value (a tombstone) stays null: only key and headers can make it too large.
     */
    private static Letter cut(byte[] key, byte[] value, Headers headers, boolean withoutHeaders, int maxRecordBytes) {
        List<String> what = new ArrayList<>();
        if (value != null) {
            what.add("value");
        }
        if (withoutHeaders) {
            what.add("headers");
        }
        if (key == null) {
            what.add("key");
        }
        RecordHeaders marked = new RecordHeaders(headers.toArray());
        marked.add(TRUNCATED, utf8(String.join(",", what)));
        if (value != null) {
            marked.add(ORIGINAL_SIZE, utf8(Integer.toString(value.length)));
            marked.add(ORIGINAL_SHA256, utf8(sha256(value)));
        }
        int withEmptyValue = size(key, value == null ? null : new byte[0], marked);
        if (withEmptyValue > maxRecordBytes) {
            return null;
        }
        if (value == null) {
            return new Letter(key, null, marked);
        }
        // The value adds its bytes and its length's varint: 1 byte for an empty value, up to 5.
        int length = Math.min(value.length, maxRecordBytes - withEmptyValue);
        while (length > 0 && withEmptyValue - 1 + varintSize(length) + length > maxRecordBytes) {
            length--;
        }
        return new Letter(key, Arrays.copyOf(value, length), marked);
    }

    /** What the producer checks against {@code max.request.size}: the batch upper bound of this one record. */
    static int size(byte[] key, byte[] value, Headers headers) {
        return AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE,
                CompressionType.NONE, key, value, headers.toArray());
    }

    private static int varintSize(int value) {
        int bytes = 1;
        for (int v = value << 1 ^ value >> 31; (v & 0xFFFFFF80) != 0; v >>>= 7) {
            bytes++;
        }
        return bytes;
    }

    private static String sha256(byte[] value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
