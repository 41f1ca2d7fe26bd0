package org.caseassignments.ingest;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Builds dead-letter records: the original key and value bytes and the original headers, plus
 * headers saying why and where the record came from.
 */
public final class DeadLetters {

    public static final String REASON = "dlq.reason";
    public static final String MESSAGE = "dlq.message";
    public static final String SOURCE_TOPIC = "dlq.source.topic";
    public static final String SOURCE_PARTITION = "dlq.source.partition";
    public static final String SOURCE_OFFSET = "dlq.source.offset";
    public static final String FAILED_AT = "dlq.failed.at";

    private DeadLetters() {
    }

    /** The original headers with the dead-letter headers added (any earlier {@code dlq.*} values replaced). */
    public static Headers headers(Headers original, Rejection rejection, String sourceTopic, int partition, long offset) {
        RecordHeaders headers = new RecordHeaders(original == null ? new RecordHeaders().toArray() : original.toArray());
        for (String name : new String[] {REASON, MESSAGE, SOURCE_TOPIC, SOURCE_PARTITION, SOURCE_OFFSET, FAILED_AT}) {
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

    /** A record for the dead-letter topic, keyed like the original so it lands beside its case's other failures. */
    public static ProducerRecord<byte[], byte[]> record(String deadLetterTopic, byte[] key, byte[] value, Headers original,
                                                        Rejection rejection, String sourceTopic, int partition, long offset) {
        return new ProducerRecord<>(deadLetterTopic, null, key, value,
                headers(original, rejection, sourceTopic, partition, offset));
    }

    /** A header's value as text, or null when absent. */
    public static String header(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
