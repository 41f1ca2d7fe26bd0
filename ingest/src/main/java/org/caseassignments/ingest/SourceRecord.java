package org.caseassignments.ingest;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.caseassignments.store.HeapBytes;

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

    /** The record's object: four references, its partition and two longs. */
    private static final long RECORD = HeapBytes.object(4, 4 + 2 * 8);
    /** Its headers' container (a list and its flag) and the list's object. */
    private static final long HEADERS = HeapBytes.object(1, 1) + HeapBytes.object(1, 2 * 4);
    /** A header's object (its key and value, and the views a consumer reads them from). */
    private static final long HEADER = HeapBytes.object(4, 0);

    /** A record a consumer read. */
    public static SourceRecord of(ConsumerRecord<byte[], byte[]> record) {
        return new SourceRecord(record.topic(), record.partition(), record.offset(), record.timestamp(), record.key(),
                record.value(), record.headers());
    }

    /** A record known by its timestamp alone (tests, and callers that never dead-letter). */
    public static SourceRecord at(long timestamp) {
        return new SourceRecord(null, -1, -1, timestamp, null, null, null);
    }

    /**
     * About how much heap holding the record keeps ({@link HeapBytes}): its object, its key's and value's bytes, and
     * each header's object, key and value; not its topic's name, which every record of the topic shares. Reading each
     * header's key and value here is also what lets go of the fetched bytes: until then a consumer's header holds a
     * view of the whole fetch, which a pending record must not keep.
     */
    public long retainedBytes() {
        long bytes = RECORD + HeapBytes.of(key) + HeapBytes.of(value);
        if (headers != null) {
            int count = 0;
            for (Header header : headers) {
                bytes += HEADER + HeapBytes.of(header.key()) + HeapBytes.of(header.value());
                count++;
            }
            // The list's array: Kafka Streams' copy of a record's headers has a slot a header, a consumer's own list
            // at least ten and half as many more each time it fills; counted as the larger.
            bytes += HEADERS + (count == 0 ? 0 : HeapBytes.references(Math.max(10, count + (count >> 1))));
        }
        return bytes;
    }
}
