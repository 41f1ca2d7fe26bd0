package org.caseassignments.projector.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.ProjectionApplier;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.store.AssignmentUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchMessageListener;

/**
 * Applies one polled batch of {@code case.assignments} records in one PostgreSQL transaction. The
 * container commits the batch's offsets only after this method returns, that is after the database
 * commit; if it throws, nothing of the batch is committed and the container retries it.
 */
final class ProjectionSink implements BatchMessageListener<byte[], byte[]> {

    private static final Logger log = LoggerFactory.getLogger(ProjectionSink.class);

    private final CaseEventReader reader;
    private final ProjectionApplier applier;
    private final KafkaTemplate<byte[], byte[]> deadLetters;
    private final String deadLetterTopic;
    private final IngestMetrics metrics;
    private final SinkHealthIndicator health;

    ProjectionSink(CaseEventReader reader, ProjectionApplier applier, KafkaTemplate<byte[], byte[]> deadLetters,
                   String deadLetterTopic, IngestMetrics metrics, SinkHealthIndicator health) {
        this.reader = reader;
        this.applier = applier;
        this.deadLetters = deadLetters;
        this.deadLetterTopic = deadLetterTopic;
        this.metrics = metrics;
        this.health = health;
    }

    @Override
    public void onMessage(List<ConsumerRecord<byte[], byte[]>> records) {
        List<AssignmentUpdate> updates = new ArrayList<>(records.size());
        List<ConsumerRecord<byte[], byte[]>> rejected = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            Ingested ingested = reader.readAssignment(record.value());
            if (ingested instanceof Ingested.Accepted accepted) {
                updates.add(accepted.update());
            } else {
                rejected.add(record);
                rejections.add(((Ingested.Rejected) ingested).rejection());
            }
        }
        applier.apply(updates);
        for (int i = 0; i < rejected.size(); i++) {
            deadLetter(rejected.get(i), rejections.get(i));
        }
        health.batchApplied(records.size());
    }

    /**
     * Only a foreign writer can put a bad record on the projection's own topic; it is dead-lettered
     * like bad input, before the batch's offsets are committed, so it is never dropped silently.
     */
    private void deadLetter(ConsumerRecord<byte[], byte[]> record, Rejection rejection) {
        log.warn("Dead-lettered {}-{}@{}: {}: {}", record.topic(), record.partition(), record.offset(),
                rejection.code(), rejection.message());
        try {
            deadLetters.send(DeadLetters.record(deadLetterTopic, record.key(), record.value(), record.headers(),
                    rejection, record.topic(), record.partition(), record.offset())).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while dead-lettering " + record.topic() + "-"
                    + record.partition() + "@" + record.offset(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Could not dead-letter " + record.topic() + "-" + record.partition() + "@"
                    + record.offset() + " to " + deadLetterTopic + "; the batch will be retried", e);
        }
        metrics.deadLettered(rejection);
    }
}
