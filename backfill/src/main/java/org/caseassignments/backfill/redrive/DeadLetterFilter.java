package org.caseassignments.backfill.redrive;

import java.time.Instant;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.caseassignments.ingest.DeadLetters;

/**
 * Which dead letters a redrive takes: by reason, by the partition and offsets of the record that was dead-lettered
 * (its {@code dlq.source.*} headers), by when it was dead-lettered (the letter's timestamp). Null: any.
 *
 * @param fromOffset first source offset taken; {@code toOffset} the first one not taken
 */
record DeadLetterFilter(Set<String> reasons, Integer sourcePartition, Long fromOffset, Long toOffset, Instant from,
                        Instant to) {

    boolean selects(ConsumerRecord<byte[], byte[]> letter) {
        String reason = DeadLetters.header(letter.headers(), DeadLetters.REASON);
        if (reasons != null && !reasons.contains(reason)) {
            return false;
        }
        if (sourcePartition != null && !String.valueOf(sourcePartition)
                .equals(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_PARTITION))) {
            return false;
        }
        if (fromOffset != null || toOffset != null) {
            String offset = DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET);
            if (offset == null) {
                return false;
            }
            long source = Long.parseLong(offset);
            if (fromOffset != null && source < fromOffset || toOffset != null && source >= toOffset) {
                return false;
            }
        }
        return (from == null || letter.timestamp() >= from.toEpochMilli())
                && (to == null || letter.timestamp() < to.toEpochMilli());
    }
}
