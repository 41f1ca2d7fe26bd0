package org.caseassignments.ingest;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A record as it was read from an input topic: where it came from and its bytes. What a dead letter is made of
 * ({@link DeadLetters#letter}, {@link DeadLetters#refused}) when the record is rejected, or when PostgreSQL refuses
 * the event it carried.
 *
 * @param timestamp the record's timestamp, epoch milliseconds
 * @param headers   the record's headers; null when unknown
 */
public record SourceRecord(String topic, int partition, long offset, long timestamp, byte[] key, byte[] value,
                           Headers headers) {

    /** A record a consumer read. */
    public static SourceRecord of(ConsumerRecord<byte[], byte[]> record) {
        return new SourceRecord(record.topic(), record.partition(), record.offset(), record.timestamp(), record.key(),
                record.value(), record.headers());
    }

    /** A record known by its timestamp alone (tests, and callers that never dead-letter). */
    public static SourceRecord at(long timestamp) {
        return new SourceRecord(null, -1, -1, timestamp, null, null, null);
    }

    /** The bytes of its key, value and headers: what holding the record keeps besides its objects. */
    public long bytes() {
        long bytes = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        if (headers != null) {
            for (Header header : headers) {
                bytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
            }
        }
        return bytes;
    }
}
