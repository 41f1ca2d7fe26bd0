package org.caseassignments.backfill.rebuild;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.rebuild.Deadline;

/**
 * Reads the event topics from the beginning into the shadow, through the projector's decode and the guarded
 * writer, one transaction per batch. Records the projector dead-letters (bad input, rows PostgreSQL refuses)
 * are counted and passed over: the projector has already dead-lettered them, a rebuild would only do it twice.
 * Outside the swap's lock every record is read through the jobs' registry retry ({@link EventTopics#read}), so a
 * schema id the registry still answers 404 for once the retry is over is passed over as {@code UNKNOWN_SCHEMA}, as
 * the projector dead-letters it; under the lock a record the registry cannot answer for yet makes the swap give way
 * instead of waiting (decision 46). It has no consumer group and commits nothing: a rebuild that stops starts again
 * from the beginning.
 */
final class ShadowBuild {

    private static final Duration POLL = Duration.ofMillis(200);

    /**
     * @param unknownSchema of {@code passedOver}, the records whose schema id the registry does not know or whose
     *                      record type is no case event ({@code UNKNOWN_SCHEMA})
     */
    record Totals(long read, long cases, long passedOver, long unknownSchema) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final CaseEventReader reader;
    private final BatchWriter writer;
    private final int batchSize;
    private List<TopicPartition> partitions = List.of();
    private long read;
    private long cases;
    private long passedOver;
    private long unknownSchema;
    /** Time spent reading and writing, for the rate {@link #estimate} assumes. */
    private long writingNanos;

    ShadowBuild(Consumer<byte[], byte[]> consumer, CaseEventReader reader, BatchWriter writer, int batchSize) {
        this.consumer = consumer;
        this.reader = reader;
        this.writer = writer;
        this.batchSize = batchSize;
    }

    void startAtTheBeginning(List<TopicPartition> partitions) {
        this.partitions = List.copyOf(partitions);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** The live end: each partition's last stable offset now (read_committed). */
    Map<TopicPartition, Long> liveEnd() {
        return consumer.endOffsets(partitions);
    }

    /**
     * The live end, asked for under the swap's lock: waiting at most the time {@code deadline} leaves, and
     * {@link Deadline.Passed} when the broker has not answered by then.
     */
    Map<TopicPartition, Long> liveEnd(Deadline deadline) {
        deadline.check();
        try {
            return consumer.endOffsets(partitions, deadline.remaining());
        } catch (TimeoutException e) {
            throw new Deadline.Passed();
        }
    }

    /** Events between the shadow and the live end now. */
    long lag() {
        return lagTo(liveEnd());
    }

    /**
     * Reads and applies until the rest up to the live end would take at most {@code tail} at the rate the build has
     * written so far, reporting progress.
     */
    void catchUpWithin(Duration tail, Progress progress) {
        Map<TopicPartition, Long> end = liveEnd();
        long lag = lagTo(end);
        while (lag > 0 && estimate(lag).compareTo(tail) > 0) {
            readBatch(end, Deadline.NONE);
            end = liveEnd();
            lag = lagTo(end);
            progress.update(read, fraction(lag), "cases " + cases + ", lag to the live end " + lag + " events");
        }
    }

    /** Reads and applies until every partition reached {@code ends}. */
    void drainTo(Map<TopicPartition, Long> ends) {
        drainTo(ends, Deadline.NONE);
    }

    /**
     * Reads and applies until every partition reached {@code ends}, never past them; under the swap's lock, stops
     * with {@link Deadline.Passed} once the deadline has passed: checked before each poll and each write, no poll
     * waits past it, and the writes' statements are cancelled at it ({@link ShadowTransactions}).
     */
    void drainTo(Map<TopicPartition, Long> ends, Deadline deadline) {
        while (lagTo(ends) > 0) {
            readBatch(ends, deadline);
        }
    }

    /** How long applying {@code events} takes at the rate the build has written so far (none yet: unknown, long). */
    Duration estimate(long events) {
        if (events == 0) {
            return Duration.ZERO;
        }
        if (read == 0 || writingNanos == 0) {
            return Duration.ofDays(1);
        }
        return Duration.ofNanos((long) ((double) writingNanos / read * events));
    }

    /** Where the build is: taken before the swap's transaction, whose writes to the shadow a rollback undoes. */
    record Mark(Map<TopicPartition, Long> positions, Totals totals) {
    }

    Mark mark() {
        Map<TopicPartition, Long> positions = new java.util.HashMap<>();
        partitions.forEach(p -> positions.put(p, consumer.position(p)));
        return new Mark(positions, totals());
    }

    /** After the swap's transaction rolled back: read again what it had written to the shadow. */
    void rewindTo(Mark mark) {
        mark.positions().forEach(consumer::seek);
        read = mark.totals().read();
        cases = mark.totals().cases();
        passedOver = mark.totals().passedOver();
        unknownSchema = mark.totals().unknownSchema();
    }

    Totals totals() {
        return new Totals(read, cases, passedOver, unknownSchema);
    }

    OptionalDouble fraction(long lag) {
        return read + lag == 0 ? OptionalDouble.of(1.0) : OptionalDouble.of((double) read / (read + lag));
    }

    long lagTo(Map<TopicPartition, Long> ends) {
        long lag = 0;
        for (TopicPartition p : partitions) {
            lag += Math.max(0, ends.getOrDefault(p, 0L) - consumer.position(p));
        }
        return lag;
    }

    /**
     * Polls up to a batch, or until every partition reached {@code ends} or a poll comes back empty, and writes it in
     * one transaction. Records at or past a partition's end are not taken: the partition is sought back to its end,
     * so the next read starts there.
     */
    private void readBatch(Map<TopicPartition, Long> ends, Deadline deadline) {
        long started = System.nanoTime();
        List<Ingested.Accepted> batch = new ArrayList<>();
        List<TopicPartition> reached = partitions.stream()
                .filter(p -> consumer.position(p) >= ends.getOrDefault(p, 0L)).toList();
        consumer.pause(reached);
        while (batch.size() < batchSize && lagTo(ends) > 0) {
            deadline.check();
            ConsumerRecords<byte[], byte[]> records = consumer.poll(deadline.atMost(POLL));
            if (records.isEmpty()) {
                break;
            }
            for (TopicPartition partition : records.partitions()) {
                long end = ends.getOrDefault(partition, 0L);
                for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                    if (record.offset() >= end) {
                        consumer.seek(partition, end);
                        break;
                    }
                    read++;
                    Ingested ingested = read(record, deadline);
                    if (ingested instanceof Ingested.Accepted accepted) {
                        batch.add(accepted);
                    } else {
                        passedOver++;
                        if (ingested instanceof Ingested.Rejected rejected
                                && DecodeFailure.UNKNOWN_SCHEMA.name().equals(rejected.rejection().code())) {
                            unknownSchema++;
                        }
                    }
                }
            }
        }
        consumer.resume(reached);
        if (!batch.isEmpty()) {
            deadline.check();
            BatchWriter.Written<Ingested.Accepted> written = writer.write(BatchReduction.reduce(batch,
                    Ingested.Accepted::update, Ingested.Accepted::occurredAt));
            ApplyResult result = written.result();
            cases += result.insertedCases().size();
            passedOver += written.refused().size();
        }
        writingNanos += System.nanoTime() - started;
    }

    /**
     * Outside the lock, through the registry retry (a record still unreadable after it stops the rebuild, which says
     * so); under the lock, one try: a registry that cannot answer yet makes the swap give way, to be retried outside.
     */
    private Ingested read(ConsumerRecord<byte[], byte[]> record, Deadline deadline) {
        if (deadline == Deadline.NONE) {
            return EventTopics.read(reader, record, "the rebuild reads every record of the topics, so it needs the "
                    + "registry to answer");
        }
        try {
            return reader.read(record.key(), record.value(), record.headers());
        } catch (EventDecodingException e) {
            throw new Deadline.Passed();
        }
    }
}
