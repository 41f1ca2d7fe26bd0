package org.caseassignments.backfill.redrive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.time.Duration;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.BatchIsolation;
import org.caseassignments.store.BatchReduction;
import org.caseassignments.store.BatchWriter;

/**
 * One redrive: reads every partition of the dead-letter topic from its beginning to the end offsets captured at the
 * start, skips (counting and listing) each letter whose provenance is malformed or names another topic than the
 * input topics, and for each other letter the filter selects: decodes the original record again (a cut-down letter
 * cannot be), applies what decodes through the guarded writer one batch per poll, and keeps what still fails with
 * its reason now. Nothing is produced anywhere.
 */
final class RedriveRun {

    private static final Duration POLL = Duration.ofMillis(500);

    /** A letter that still fails: where its record came from, and why it fails today. */
    record StillFailing(String source, String reason, String message) {
    }

    /** @param skipped letters never re-driven, by {@link #NOT_FROM_INPUT_TOPICS} or {@link #MALFORMED_PROVENANCE} */
    record Totals(long read, long selected, long applied, long unchanged, Map<String, Long> stillFailing,
                  Map<String, Long> skipped, List<StillFailing> sample) {

        long failing() {
            return stillFailing.values().stream().mapToLong(Long::longValue).sum();
        }

        long skippedCount() {
            return skipped.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** A letter whose record came from a topic other than the input topics: another system's, or written by hand. */
    static final String NOT_FROM_INPUT_TOPICS = "NOT_FROM_INPUT_TOPICS";
    /** A letter whose {@code dlq.source.topic}, {@code .partition} or {@code .offset} is missing or not well formed. */
    static final String MALFORMED_PROVENANCE = "MALFORMED_PROVENANCE";

    private final Consumer<byte[], byte[]> consumer;
    private final CaseEventReader reader;
    private final BatchWriter writer;
    private final Set<String> inputTopics;
    private final DeadLetterFilter filter;
    private final int sample;
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private final Map<String, Long> stillFailing = new LinkedHashMap<>();
    private final Map<String, Long> skipped = new LinkedHashMap<>();
    private final List<StillFailing> samples = new ArrayList<>();
    private long read;
    private long selected;
    private long applied;
    private long unchanged;

    RedriveRun(Consumer<byte[], byte[]> consumer, CaseEventReader reader, BatchWriter writer, Set<String> inputTopics,
               DeadLetterFilter filter, int sample) {
        this.consumer = consumer;
        this.reader = reader;
        this.writer = writer;
        this.inputTopics = Set.copyOf(inputTopics);
        this.filter = filter;
        this.sample = sample;
    }

    /** Assigns every partition from its beginning; returns the end offsets it stops at. */
    Map<TopicPartition, Long> position(List<TopicPartition> partitions) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        ends.putAll(consumer.endOffsets(partitions));
        return Map.copyOf(ends);
    }

    Totals run(Progress progress) {
        long total = ends.values().stream().mapToLong(Long::longValue).sum();
        while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            List<Redriven> batch = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> letter : consumer.poll(POLL)) {
                if (letter.offset() >= ends.get(new TopicPartition(letter.topic(), letter.partition()))) {
                    continue;
                }
                read++;
                Optional<Provenance> provenance = Provenance.of(letter.headers());
                if (provenance.isEmpty()) {
                    skip(letter, MALFORMED_PROVENANCE, "dlq.source.topic, .partition or .offset missing or not a number");
                } else if (!inputTopics.contains(provenance.get().topic())) {
                    skip(letter, NOT_FROM_INPUT_TOPICS, "a record of " + provenance.get().topic() + ", not of "
                            + String.join(",", inputTopics));
                } else if (filter.selects(letter, provenance.get())) {
                    selected++;
                    take(letter, provenance.get(), batch);
                }
            }
            write(batch);
            progress.update(read, total == 0 ? OptionalDouble.of(1) : OptionalDouble.of((double) read / total),
                    "selected " + selected + ", applied " + applied + ", still failing " + failing());
        }
        progress.finish(read, OptionalDouble.of(1));
        return new Totals(read, selected, applied, unchanged, Map.copyOf(stillFailing), Map.copyOf(skipped),
                List.copyOf(samples));
    }

    private void take(ConsumerRecord<byte[], byte[]> letter, Provenance provenance, List<Redriven> batch) {
        if (DeadLetters.header(letter.headers(), DeadLetters.TRUNCATED) != null) {
            fails(provenance, "TRUNCATED", "the letter holds only part of the original record (cut to fit the topic)");
            return;
        }
        Ingested ingested = readWithRetries(letter);
        if (ingested instanceof Ingested.Accepted accepted) {
            batch.add(new Redriven(provenance, accepted));
        } else if (ingested instanceof Ingested.Rejected rejected) {
            fails(provenance, rejected.rejection().code(), rejected.rejection().message());
        }
    }

    private void write(List<Redriven> batch) {
        if (batch.isEmpty()) {
            return;
        }
        BatchWriter.Written<Redriven> written = writer.write(BatchReduction.reduce(batch, r -> r.accepted().update(),
                r -> r.accepted().occurredAt()));
        ApplyResult result = written.result();
        int moved = result.insertedCases().size() + result.advancedCases().size();
        applied += moved;
        unchanged += batch.size() - moved - written.refused().size();
        for (BatchIsolation.Refused<Redriven> refused : written.refused()) {
            fails(refused.item().provenance(), refused.rejection().reason(), refused.rejection().message());
        }
    }

    private void fails(Provenance provenance, String reason, String message) {
        stillFailing.merge(reason, 1L, Long::sum);
        sample(provenance.toString(), reason, message);
    }

    /** Counted and listed, never decoded nor applied; named by the provenance it claims, or where the letter is. */
    private void skip(ConsumerRecord<byte[], byte[]> letter, String reason, String message) {
        skipped.merge(reason, 1L, Long::sum);
        sample(Provenance.of(letter.headers()).map(Provenance::toString).orElse(
                "letter " + letter.topic() + "-" + letter.partition() + "@" + letter.offset()), reason, message);
    }

    private void sample(String source, String reason, String message) {
        if (samples.size() < sample) {
            samples.add(new StillFailing(source, reason, message));
        }
    }

    private long failing() {
        return stillFailing.values().stream().mapToLong(Long::longValue).sum();
    }

    private Ingested readWithRetries(ConsumerRecord<byte[], byte[]> letter) {
        return EventTopics.read(reader, letter, "what was applied before stays (the guard makes running again harmless)");
    }

    /** A selected letter's provenance and the event it now decodes to. */
    private record Redriven(Provenance provenance, Ingested.Accepted accepted) {
    }
}
