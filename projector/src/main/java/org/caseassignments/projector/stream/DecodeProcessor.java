package org.caseassignments.projector.stream;

import java.util.List;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.RegistryRetry;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.store.BatchIsolation;

/**
 * Decodes and validates one input record, key included. An accepted event goes to the task's
 * {@link PendingAssignments} straight away, and on (keyed by its case id) only when the projection is
 * published; a rejected record goes on with its original key and value and the {@code dlq.*} headers saying
 * why and where from, cut to the topics' size limit if it no longer fits, and is counted ({@link DeadLetterLog}
 * logs it once it is written). Handing accepted events to the pending batch here rather than through further
 * topology nodes saves a forward, a record and a key string per event.
 */
final class DecodeProcessor implements Processor<byte[], byte[], String, Forwarded> {

    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry retry;
    private final boolean forwardUpdates;
    private final int maxMessageBytes;
    private ProcessorContext<String, Forwarded> context;
    private PendingAssignments pending;
    /** Forwards the dead letters of events PostgreSQL refused from the pending batch's write before a commit. */
    private BeforeCommitHook.Forwarder<String, Forwarded> refusedForwarder;

    DecodeProcessor(CaseEventReader reader, IngestMetrics metrics, RegistryRetry retry, boolean forwardUpdates,
                    int maxMessageBytes) {
        this.reader = reader;
        this.metrics = metrics;
        this.retry = retry;
        this.forwardUpdates = forwardUpdates;
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void init(ProcessorContext<String, Forwarded> context) {
        this.context = context;
        this.refusedForwarder = BeforeCommitHook.Forwarder.of(context);
        this.pending = context.getStateStore(PendingAssignments.NAME);
        pending.attach(context, this::deadLetterRefused);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        try (RecordLogContext logContext = RecordLogContext.open(source.topic(), source.partition(), source.offset(),
                record.headers())) {
            process(record, source, logContext);
        }
    }

    private void process(Record<byte[], byte[]> record, RecordMetadata source, RecordLogContext logContext) {
        Ingested ingested = retry.read(reader, record.key(), record.value(), record.headers());
        SourceRecord read = new SourceRecord(source.topic(), source.partition(), source.offset(), record.timestamp(),
                record.key(), record.value(), record.headers());
        if (ingested instanceof Ingested.Accepted accepted) {
            logContext.caseId(accepted.update().caseId());
            pending.add(new PendingAssignments.Event(accepted.update(), accepted.occurredAt(), read));
            if (forwardUpdates) {
                context.forward(record.withKey(accepted.update().caseId().toString())
                        .withValue((Forwarded) new Forwarded.Update(accepted.update())));
            }
            return;
        }
        Rejection rejection = ((Ingested.Rejected) ingested).rejection();
        DeadLetters.Letter letter = DeadLetters.letter(read, rejection, maxMessageBytes);
        metrics.deadLettered(rejection);
        context.forward(record.withKey((String) null)
                .withValue((Forwarded) new Forwarded.DeadLetter(letter.key(), letter.value()))
                .withHeaders(letter.headers()));
    }

    /** The task closes or becomes a standby: its pending batch no longer takes a share of the byte budget. */
    @Override
    public void close() {
        if (pending != null) {
            pending.detach();
        }
    }

    /**
     * Dead-letters the events PostgreSQL refused, called from the pending batch's flush before the task
     * commits: each goes on as the record it came in, from where it came, so it is sent in the same Kafka
     * transaction as the input offsets that move past it.
     */
    private void deadLetterRefused(List<BatchIsolation.Refused<PendingAssignments.Event>> refused) {
        refusedForwarder.requireTask(refused.size() + " dead letters of events PostgreSQL refused (the batch's offsets "
                + "stay uncommitted)");
        for (BatchIsolation.Refused<PendingAssignments.Event> r : refused) {
            PendingAssignments.Event event = r.item();
            SourceRecord source = event.record();
            DeadLetters.Letter letter = DeadLetters.refused(source, event.update(), r.rejection(), maxMessageBytes);
            metrics.deadLettered(DeadLetters.rejection(event.update(), r.rejection()));
            refusedForwarder.forward(new Record<String, Forwarded>(null, new Forwarded.DeadLetter(letter.key(), letter.value()),
                    source.timestamp(), letter.headers()), source.topic(), source.partition(), source.offset(),
                    source.timestamp(), source.headers());
        }
    }
}
