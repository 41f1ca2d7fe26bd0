package org.caseassignments.projector.stream;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.projector.sink.ProjectionWriter;

/**
 * Decodes and validates one input record, key included. An accepted event goes to the task's
 * {@link ProjectionWriter} straight away, and on (keyed by its case id) only when the projection is
 * published; a rejected record goes on with its original key and value and the {@code dlq.*} headers saying
 * why and where from, cut to the topics' size limit if it no longer fits, and is counted ({@link DeadLetterLog}
 * logs it once it is written). Handing accepted events to the writer here rather than through further
 * topology nodes saves a forward, a record and a key string per event.
 */
final class DecodeProcessor implements Processor<byte[], byte[], String, Decoded> {

    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry retry;
    private final ProjectionWriter writer;
    private final boolean forwardUpdates;
    private final int maxMessageBytes;
    private ProcessorContext<String, Decoded> context;

    DecodeProcessor(CaseEventReader reader, IngestMetrics metrics, RegistryRetry retry, ProjectionWriter writer,
                    boolean forwardUpdates, int maxMessageBytes) {
        this.reader = reader;
        this.metrics = metrics;
        this.retry = retry;
        this.writer = writer;
        this.forwardUpdates = forwardUpdates;
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void init(ProcessorContext<String, Decoded> context) {
        this.context = context;
        writer.init(context);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Ingested ingested = retry.call(() -> reader.read(record.key(), record.value()));
        if (ingested instanceof Ingested.Accepted accepted) {
            writer.add(accepted.update(), record.timestamp());
            if (forwardUpdates) {
                context.forward(record.withKey(accepted.update().caseId().toString())
                        .withValue((Decoded) new Decoded.Update(accepted.update())));
            }
            return;
        }
        Rejection rejection = ((Ingested.Rejected) ingested).rejection();
        RecordMetadata source = context.recordMetadata().orElseThrow();
        DeadLetters.Letter letter = DeadLetters.letter(record.key(), record.value(), record.headers(), rejection,
                source.topic(), source.partition(), source.offset(), maxMessageBytes);
        metrics.deadLettered(rejection);
        context.forward(record.withKey((String) null)
                .withValue((Decoded) new Decoded.DeadLetter(letter.key(), letter.value()))
                .withHeaders(letter.headers()));
    }
}
