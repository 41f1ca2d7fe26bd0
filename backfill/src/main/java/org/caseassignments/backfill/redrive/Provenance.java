package org.caseassignments.backfill.redrive;

import java.util.Optional;

import org.apache.kafka.common.header.Headers;
import org.caseassignments.ingest.DeadLetters;

/**
 * Where the record a dead letter holds came from, as its {@code dlq.source.*} headers say: a topic, a partition and
 * an offset, each present and well formed, or no provenance at all.
 */
record Provenance(String topic, int partition, long offset) {

    static Optional<Provenance> of(Headers headers) {
        String topic = DeadLetters.header(headers, DeadLetters.SOURCE_TOPIC);
        String partition = DeadLetters.header(headers, DeadLetters.SOURCE_PARTITION);
        String offset = DeadLetters.header(headers, DeadLetters.SOURCE_OFFSET);
        if (topic == null || topic.isBlank() || partition == null || offset == null) {
            return Optional.empty();
        }
        try {
            Provenance provenance = new Provenance(topic, Integer.parseInt(partition), Long.parseLong(offset));
            return provenance.partition() < 0 || provenance.offset() < 0 ? Optional.empty() : Optional.of(provenance);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
