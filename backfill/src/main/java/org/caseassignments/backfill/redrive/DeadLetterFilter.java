package org.caseassignments.backfill.redrive;

import java.time.Instant;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.caseassignments.ingest.DeadLetters;

/**
 * Which dead letters a redrive takes: by reason, by the partition and offsets of the record that was dead-lettered
 * (its {@code dlq.source.*} headers, parsed: {@link Provenance}), by when it was dead-lettered (the letter's
 * timestamp). Null: any.
 *
 * @param fromOffset first source offset taken; {@code toOffset} the first one not taken
 */
record DeadLetterFilter(Set<String> reasons, Integer sourcePartition, Long fromOffset, Long toOffset, Instant from,
                        Instant to) {

    boolean selects(ConsumerRecord<byte[], byte[]> letter, Provenance provenance) {
        if (sourcePartition != null && sourcePartition != provenance.partition()) {
            return false;
        }
        if (fromOffset != null && provenance.offset() < fromOffset || toOffset != null && provenance.offset() >= toOffset) {
            return false;
        }
        return selectsByReasonAndTime(letter);
    }

    /** A letter whose provenance is missing or malformed: taken only when no filter reads the source. */
    boolean selectsWithoutProvenance(ConsumerRecord<byte[], byte[]> letter) {
        return sourcePartition == null && fromOffset == null && toOffset == null && selectsByReasonAndTime(letter);
    }

    private boolean selectsByReasonAndTime(ConsumerRecord<byte[], byte[]> letter) {
        if (reasons != null && !reasons.contains(DeadLetters.header(letter.headers(), DeadLetters.REASON))) {
            return false;
        }
        return (from == null || letter.timestamp() >= from.toEpochMilli())
                && (to == null || letter.timestamp() < to.toEpochMilli());
    }
}
