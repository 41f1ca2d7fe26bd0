package org.caseassignments.projector.stream;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.caseassignments.ingest.DeadLetters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a dead letter once the broker acknowledged it, on the stream threads' producer: Kafka Streams
 * sends asynchronously, so a line written when the record was handed over would claim a write that may
 * still fail. The acknowledged record is part of the task's transaction, visible once the task commits;
 * if the transaction aborts instead, the input is read again and its dead letter written (and logged) again.
 * Kafka instantiates it from {@code interceptor.classes}, so it is public.
 */
public final class DeadLetterLog implements ProducerInterceptor<byte[], byte[]> {

    /** The producer setting naming the dead-letter topic, set with the {@code producer.} prefix. */
    static final String TOPIC_CONFIG = "case-assignments.dead-letter-topic";

    private static final Logger log = LoggerFactory.getLogger(DeadLetterLog.class);

    private String topic;

    @Override
    public void configure(Map<String, ?> configs) {
        Object configured = configs.get(TOPIC_CONFIG);
        if (configured == null) {
            throw new IllegalStateException(TOPIC_CONFIG + " is not set for " + DeadLetterLog.class.getName());
        }
        topic = configured.toString();
    }

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception, Headers headers) {
        if (metadata == null || !topic.equals(metadata.topic()) || headers == null
                || headers.lastHeader(DeadLetters.REASON) == null) {
            return;
        }
        // on the producer's thread: the MDC names the input record from the dead letter's own headers
        try (RecordLogContext ignored = RecordLogContext.open(DeadLetters.header(headers, DeadLetters.SOURCE_TOPIC),
                DeadLetters.header(headers, DeadLetters.SOURCE_PARTITION),
                DeadLetters.header(headers, DeadLetters.SOURCE_OFFSET), headers)) {
            log(metadata, exception, headers);
        }
    }

    private void log(RecordMetadata metadata, Exception exception, Headers headers) {
        if (exception == null) {
            log.warn(DeadLetters.written(metadata, headers));
        } else {
            log.error("Could not write the dead letter of {}-{}@{} ({}) to {}: {}; the task does not commit, and its "
                            + "input is read again from its last commit", DeadLetters.header(headers, DeadLetters.SOURCE_TOPIC),
                    DeadLetters.header(headers, DeadLetters.SOURCE_PARTITION),
                    DeadLetters.header(headers, DeadLetters.SOURCE_OFFSET), DeadLetters.header(headers, DeadLetters.REASON),
                    topic, exception.toString());
        }
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        // The three-argument form above is the one the producer calls; it carries the headers.
    }

    @Override
    public void close() {
    }
}
