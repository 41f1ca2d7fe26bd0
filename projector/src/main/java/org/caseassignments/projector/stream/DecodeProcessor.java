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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes and validates one input record. An accepted event goes on keyed by its case id; a
 * rejected record goes on with its original key and value and the {@code dlq.*} headers saying
 * why and where from, is counted, and is logged once.
 */
final class DecodeProcessor implements Processor<byte[], byte[], String, Decoded> {

    private static final Logger log = LoggerFactory.getLogger(DecodeProcessor.class);

    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry retry;
    private ProcessorContext<String, Decoded> context;

    DecodeProcessor(CaseEventReader reader, IngestMetrics metrics, RegistryRetry retry) {
        this.reader = reader;
        this.metrics = metrics;
        this.retry = retry;
    }

    @Override
    public void init(ProcessorContext<String, Decoded> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Ingested ingested = retry.call(() -> reader.read(record.value()));
        if (ingested instanceof Ingested.Accepted accepted) {
            context.forward(record.withKey(accepted.update().caseId().toString())
                    .withValue((Decoded) new Decoded.Update(accepted.update())));
            return;
        }
        Rejection rejection = ((Ingested.Rejected) ingested).rejection();
        RecordMetadata source = context.recordMetadata().orElseThrow();
        metrics.deadLettered(rejection);
        log.warn("Dead-lettered {}-{}@{}: {}: {}", source.topic(), source.partition(), source.offset(),
                rejection.code(), rejection.message());
        context.forward(record.withKey((String) null)
                .withValue((Decoded) new Decoded.DeadLetter(record.key(), record.value()))
                .withHeaders(DeadLetters.headers(record.headers(), rejection, source.topic(), source.partition(),
                        source.offset())));
    }
}
