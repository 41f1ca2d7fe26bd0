package org.caseassignments.backfill.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replay: positions each partition, then polls, decodes, dead-letters and applies batch by
 * batch until every partition reached the end offset captured at the start. Per batch the order is:
 * apply in one transaction (events PostgreSQL refuses are set aside and dead-lettered like bad input),
 * wait for the dead-letter acknowledgements, then commit the offsets.
 */
final class ReplayRun {

    private static final Logger log = LoggerFactory.getLogger(ReplayRun.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(60);

    record Totals(long read, long applied, long unchanged, long deadLettered, List<PartitionRange> partitions) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> deadLetters;
    private final String deadLetterTopic;
    private final int maxMessageBytes;
    private final CaseEventReader reader;
    private final BatchWriter writer;
    private final Map<TopicPartition, PartitionRange> ranges = new LinkedHashMap<>();
    private long read;
    private long applied;
    private long unchanged;
    private long deadLettered;
    private final IngestMetrics metrics;

    /**
     * @param deadLetters     the dead-letter producer; null on a dry run, which sends no letter and commits no offset
     *                        (its writer rolls every batch back), counting what a run would do
     * @param maxMessageBytes the size a dead letter is cut to, the dead-letter producer's {@code max.request.size}
     */
    ReplayRun(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> deadLetters, String deadLetterTopic,
              int maxMessageBytes, CaseEventReader reader, BatchWriter writer, IngestMetrics metrics) {
        this.metrics = metrics;
        this.consumer = consumer;
        this.deadLetters = deadLetters;
        this.deadLetterTopic = deadLetterTopic;
        this.maxMessageBytes = maxMessageBytes;
        this.reader = reader;
        this.writer = writer;
    }

    /** Assigns every partition and captures where to start and where to stop. */
    void position(List<TopicPartition> partitions, Instant fromTimestamp, boolean resume) {
        consumer.assign(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> starts = new HashMap<>(consumer.beginningOffsets(partitions));
        if (fromTimestamp != null) {
            Map<TopicPartition, OffsetAndTimestamp> byTime = consumer.offsetsForTimes(partitions.stream()
                    .collect(Collectors.toMap(p -> p, p -> fromTimestamp.toEpochMilli())));
            partitions.forEach(p -> starts.put(p, byTime.get(p) == null ? ends.get(p) : byTime.get(p).offset()));
        }
        if (resume) {
            consumer.committed(java.util.Set.copyOf(partitions)).forEach((p, committed) -> {
                if (committed != null) {
                    starts.put(p, committed.offset());
                }
            });
        }
        for (TopicPartition p : partitions) {
            PartitionRange range = new PartitionRange(p, starts.get(p), ends.get(p));
            ranges.put(p, range);
            consumer.seek(p, range.start);
            if (range.done()) {
                consumer.pause(List.of(p));
            }
        }
    }

    /** Where each partition not yet done stops: the end offsets captured by {@link #position}. */
    Map<TopicPartition, Long> ends() {
        Map<TopicPartition, Long> ends = new HashMap<>();
        ranges.values().stream().filter(r -> !r.done()).forEach(r -> ends.put(r.partition, r.end));
        return ends;
    }

    Totals run(Progress progress) throws InterruptedException {
        while (ranges.values().stream().anyMatch(r -> !r.done())) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            List<Replayed> batch = new ArrayList<>();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                PartitionRange range = ranges.get(new TopicPartition(record.topic(), record.partition()));
                if (record.offset() >= range.end) {
                    continue;
                }
                read++;
                Ingested ingested = readWithRetries(record);
                if (ingested instanceof Ingested.Accepted accepted) {
                    batch.add(new Replayed(record, accepted));
                } else if (ingested instanceof Ingested.Rejected rejected) {
                    if (!dryRun()) {
                        sent.add(sendDeadLetter(DeadLetters.letter(SourceRecord.of(record), rejected.rejection(),
                                maxMessageBytes)));
                        metrics.deadLettered(rejected.rejection());
                    }
                    deadLettered++;
                }
            }
            if (!batch.isEmpty()) {
                BatchWriter.Written<Replayed> written = writer.write(BatchReduction.reduce(batch,
                        r -> r.accepted().update(), r -> r.accepted().occurredAt()));
                ApplyResult result = written.result();
                int moved = result.insertedCases().size() + result.advancedCases().size();
                applied += moved;
                unchanged += batch.size() - moved - written.refused().size();
                for (BatchIsolation.Refused<Replayed> refused : written.refused()) {
                    ConsumerRecord<byte[], byte[]> record = refused.item().record();
                    if (!dryRun()) {
                        sent.add(sendDeadLetter(DeadLetters.refused(SourceRecord.of(record),
                                refused.item().accepted().update(), refused.rejection(), maxMessageBytes)));
                        metrics.deadLettered(DeadLetters.rejection(refused.item().accepted().update(), refused.rejection()));
                    }
                    deadLettered++;
                }
            }
            awaitAcknowledgements(sent);
            commitPositions(records);
            progress.update(read, fraction(), ranges.values().stream().map(PartitionRange::toString)
                    .collect(Collectors.joining(", ")));
        }
        progress.finish(read, fraction());
        return new Totals(read, applied, unchanged, deadLettered, List.copyOf(ranges.values()));
    }

    private boolean dryRun() {
        return deadLetters == null;
    }

    /** An accepted event and the record it came in, which is dead-lettered if PostgreSQL refuses the event. */
    private record Replayed(ConsumerRecord<byte[], byte[]> record, Ingested.Accepted accepted) {
    }

    /** Sends a dead letter; it is logged once the broker has acknowledged it. */
    private Future<RecordMetadata> sendDeadLetter(DeadLetters.Letter letter) {
        return deadLetters.send(DeadLetters.record(deadLetterTopic, letter), (written, e) -> {
            if (e == null) {
                log.warn(DeadLetters.written(written, letter.headers()));
            }
        });
    }

    private Ingested readWithRetries(ConsumerRecord<byte[], byte[]> record) {
        return EventTopics.read(reader, record, dryRun() ? "a dry run commits nothing, run the dry run again"
                : "nothing from this batch on was committed, run again with --resume");
    }

    private void awaitAcknowledgements(List<Future<RecordMetadata>> sent) throws InterruptedException {
        for (Future<RecordMetadata> future : sent) {
            try {
                future.get(SEND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the dead-letter topic " + deadLetterTopic + " did not acknowledge a record: "
                        + e.getMessage() + "; the batch's offsets were not committed, run again with --resume", e);
            }
        }
    }

    /**
     * After the database commit and the dead-letter acknowledgements: the consumed positions, never past the end. A dry
     * run only moves its ranges.
     */
    private void commitPositions(ConsumerRecords<byte[], byte[]> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionRange range : ranges.values()) {
            if (range.done()) {
                continue;
            }
            range.next = Math.min(consumer.position(range.partition), range.end);
            if (records.partitions().contains(range.partition) || range.done()) {
                offsets.put(range.partition, new OffsetAndMetadata(range.next));
            }
            if (range.done()) {
                consumer.pause(List.of(range.partition));
            }
        }
        if (!offsets.isEmpty() && !dryRun()) {
            consumer.commitSync(offsets);
        }
    }

    private OptionalDouble fraction() {
        long total = ranges.values().stream().mapToLong(r -> r.end - r.start).sum();
        long done = ranges.values().stream().mapToLong(PartitionRange::read).sum();
        return total == 0 ? OptionalDouble.of(1.0) : OptionalDouble.of((double) done / total);
    }
}
