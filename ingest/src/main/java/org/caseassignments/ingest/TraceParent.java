package org.caseassignments.ingest;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.caseassignments.store.AssignmentUpdate;

/**
 * The upstream's W3C Trace Context on a record: the trace id of its {@code traceparent} header, read strictly
 * (version {@code 00}, exactly {@code 00-<32 hex>-<16 hex>-<2 hex>} in lower case, neither id all zeros). A header
 * is the upstream's input: anything else is no trace id, never a rejection, so a bad header neither dead-letters
 * nor fails the record it came on. The one reader of the header, for the logs and for what is stored
 * (decision 34).
 */
public final class TraceParent {

    /** The record header. */
    public static final String HEADER = "traceparent";
    /** The logging MDC key (a structured field) under which a record's trace id is logged. */
    public static final String MDC_KEY = AssignmentUpdate.TRACE_ID_LOG_FIELD;

    private static final int LENGTH = 55;

    private TraceParent() {
    }

    /** The trace id of the record's last {@code traceparent} header, or null when it has no valid one. */
    public static String traceId(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(HEADER);
        return header == null ? null : traceId(header.value());
    }

    /** The trace id of a {@code traceparent} value, or null when the value is not a version-00 one. */
    static String traceId(byte[] value) {
        if (value == null || value.length != LENGTH) {
            return null;
        }
        String text = new String(value, StandardCharsets.US_ASCII);
        if (!text.startsWith("00-") || text.charAt(35) != '-' || text.charAt(52) != '-') {
            return null;
        }
        String traceId = text.substring(3, 35);
        String parentId = text.substring(36, 52);
        if (!lowerHex(traceId) || !lowerHex(parentId) || !lowerHex(text.substring(53, LENGTH)) || allZeros(traceId)
                || allZeros(parentId)) {
            return null;
        }
        return traceId;
    }

    private static boolean lowerHex(String s) {
        return s.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    private static boolean allZeros(String s) {
        return s.chars().allMatch(c -> c == '0');
    }
}
