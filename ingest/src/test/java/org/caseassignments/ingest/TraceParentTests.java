package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class TraceParentTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void shouldReadTheTraceIdOfAVersion00Traceparent() {
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-01")).isEqualTo(TRACE);
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-00")).as("not sampled").isEqualTo(TRACE);
    }

    @Test
    void shouldIgnoreAHeaderThatIsNoVersion00Traceparent() {
        assertThat(traceId(null)).isNull();
        assertThat(traceId("")).isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7")).as("too short").isNull();
        assertThat(traceId("00-" + TRACE.toUpperCase() + "-00f067aa0ba902b7-01")).as("upper case").isNull();
        assertThat(traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01")).as("all-zero trace id").isNull();
        assertThat(traceId("00-" + TRACE + "-0000000000000000-01")).as("all-zero parent id").isNull();
        assertThat(traceId("ff-" + TRACE + "-00f067aa0ba902b7-01")).as("version ff").isNull();
        assertThat(traceId("01-" + TRACE + "-00f067aa0ba902b7-01")).as("another version").isNull();
        assertThat(traceId("01-" + TRACE + "-00f067aa0ba902b7-01-more")).as("another version, longer").isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-01-x")).as("version 00 with more").isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-0\n")).as("a line break").isNull();
        assertThat(traceId("00_" + TRACE + "_00f067aa0ba902b7_01")).as("other separators").isNull();
        assertThat(traceId("00-" + TRACE.substring(1) + "g-00f067aa0ba902b7-01")).as("not hex").isNull();
    }

    @Test
    void shouldReadTheLastTraceparentHeaderOfARecord() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", "garbage".getBytes(StandardCharsets.US_ASCII));
        headers.add("traceparent", ("00-" + TRACE + "-00f067aa0ba902b7-01").getBytes(StandardCharsets.US_ASCII));

        assertThat(TraceParent.traceId(headers)).isEqualTo(TRACE);
        assertThat(TraceParent.traceId(new RecordHeaders())).isNull();
        assertThat(TraceParent.traceId((org.apache.kafka.common.header.Headers) null)).isNull();
    }

    private static String traceId(String value) {
        return TraceParent.traceId(value == null ? null : value.getBytes(StandardCharsets.US_ASCII));
    }
}
