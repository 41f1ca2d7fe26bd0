package org.caseassignments.projector.stream;

import org.apache.kafka.common.header.Headers;
import org.caseassignments.ingest.TraceParent;
import org.slf4j.MDC;

/**
 * Names the input record on every log line written while it is processed (MDC): its topic, partition and
 * offset, the case once the record is read as an event of one, and the trace id of the upstream's W3C
 * {@code traceparent} header when the record carries a valid one ({@link TraceParent}). The structured log formats print MDC
 * entries as fields, so an operator can go from a log line to the record and to the upstream's trace.
 */
final class RecordLogContext implements AutoCloseable {

    static final String TOPIC = "kafka_topic";
    static final String PARTITION = "kafka_partition";
    static final String OFFSET = "kafka_offset";
    static final String CASE_ID = "case_id";
    static final String TRACE_ID = TraceParent.MDC_KEY;

    private RecordLogContext() {
    }

    static RecordLogContext open(String topic, int partition, long offset, Headers headers) {
        return open(topic, Integer.toString(partition), Long.toString(offset), headers);
    }

    /** The same for a record named by text, such as a dead letter's {@code dlq.source.*} headers. */
    static RecordLogContext open(String topic, String partition, String offset, Headers headers) {
        MDC.put(TOPIC, topic);
        MDC.put(PARTITION, partition);
        MDC.put(OFFSET, offset);
        String traceId = TraceParent.traceId(headers);
        if (traceId != null) {
            MDC.put(TRACE_ID, traceId);
        }
        return new RecordLogContext();
    }

    void caseId(Object caseId) {
        MDC.put(CASE_ID, caseId.toString());
    }

    @Override
    public void close() {
        MDC.remove(TOPIC);
        MDC.remove(PARTITION);
        MDC.remove(OFFSET);
        MDC.remove(CASE_ID);
        MDC.remove(TRACE_ID);
    }
}
