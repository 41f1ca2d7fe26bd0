package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class RecordLogContextTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void shouldReadTheTraceIdOfAW3cTraceparent() {
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-01")).isEqualTo(TRACE);
        // a later version may append fields after a hyphen
        assertThat(traceId("01-" + TRACE + "-00f067aa0ba902b7-01-more")).isEqualTo(TRACE);
    }

    @Test
    void shouldIgnoreAHeaderThatIsNoTraceparent() {
        assertThat(traceId(null)).isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7")).as("too short").isNull();
        assertThat(traceId("00-" + TRACE.toUpperCase() + "-00f067aa0ba902b7-01")).as("upper case").isNull();
        assertThat(traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01")).as("all-zero trace id").isNull();
        assertThat(traceId("00-" + TRACE + "-0000000000000000-01")).as("all-zero parent id").isNull();
        assertThat(traceId("ff-" + TRACE + "-00f067aa0ba902b7-01")).as("version ff").isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-01-x")).as("version 00 with more").isNull();
        assertThat(traceId("00-" + TRACE + "-00f067aa0ba902b7-0\n")).as("a line break").isNull();
    }

    @Test
    void shouldNameTheRecordWhileOpenAndNothingAfter() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", ("00-" + TRACE + "-00f067aa0ba902b7-01").getBytes(StandardCharsets.US_ASCII));

        try (RecordLogContext context = RecordLogContext.open("case.events", 2, 41L, headers)) {
            context.caseId("c-1");
            assertThat(MDC.getCopyOfContextMap()).containsEntry("kafka_topic", "case.events")
                    .containsEntry("kafka_partition", "2").containsEntry("kafka_offset", "41")
                    .containsEntry("case_id", "c-1").containsEntry("trace_id", TRACE);
        }

        assertThat(MDC.getCopyOfContextMap() == null ? java.util.Map.of() : MDC.getCopyOfContextMap()).isEmpty();
    }

    private static String traceId(String value) {
        return RecordLogContext.traceId(value == null ? null : value.getBytes(StandardCharsets.US_ASCII));
    }
}
