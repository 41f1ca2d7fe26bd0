package org.caseassignments.backfill.replay;

import org.apache.kafka.common.TopicPartition;

/** One partition's replay: from its start offset to the end offset captured when the replay started. */
final class PartitionRange {

    final TopicPartition partition;
    final long start;
    final long end;
    long next;

    PartitionRange(TopicPartition partition, long start, long end) {
        this.partition = partition;
        this.start = Math.min(start, end);
        this.end = end;
        this.next = this.start;
    }

    boolean done() {
        return next >= end;
    }

    long read() {
        return next - start;
    }

    @Override
    public String toString() {
        return partition + " " + start + "→" + next + " (end " + end + ")";
    }
}
