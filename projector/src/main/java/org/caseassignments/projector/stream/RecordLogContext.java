package org.caseassignments.projector.stream;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.slf4j.MDC;

/**
 * Names the input record on every log line written while it is processed (MDC): its topic, partition and
 * offset, the case once the record is read as an event of one, and the trace id of the upstream's W3C
 * {@code traceparent} header when the record carries a valid one. The structured log formats print MDC
 * entries as fields, so an operator can go from a log line to the record and to the upstream's trace.
 */
final class RecordLogContext implements AutoCloseable {

    static final String TOPIC = "kafka_topic";
    static final String PARTITION = "kafka_partition";
    static final String OFFSET = "kafka_offset";
    static final String CASE_ID = "case_id";
    static final String TRACE_ID = "trace_id";
    static final String TRACEPARENT = "traceparent";

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
        Header traceparent = headers == null ? null : headers.lastHeader(TRACEPARENT);
        String traceId = traceparent == null ? null : traceId(traceparent.value());
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

    /**
     * The trace id of a {@code traceparent} value ({@code 00-<32 hex>-<16 hex>-<2 hex>}, W3C Trace Context), or
     * null when the value is not one: a header is the upstream's input, so nothing else reaches the logs.
     */
    static String traceId(byte[] value) {
        if (value == null || value.length < 55) {
            return null;
        }
        String text = new String(value, StandardCharsets.US_ASCII);
        if (text.charAt(2) != '-' || text.charAt(35) != '-' || text.charAt(52) != '-'
                || (text.length() > 55 && text.charAt(55) != '-') || text.startsWith("ff")
                || (text.startsWith("00") && text.length() != 55)) {
            return null;
        }
        String traceId = text.substring(3, 35);
        if (!lowerHex(text.substring(0, 2)) || !lowerHex(traceId) || !lowerHex(text.substring(36, 52))
                || !lowerHex(text.substring(53, 55)) || traceId.chars().allMatch(c -> c == '0')
                || text.substring(36, 52).chars().allMatch(c -> c == '0')) {
            return null;
        }
        return traceId;
    }

    private static boolean lowerHex(String s) {
        return s.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }
}
