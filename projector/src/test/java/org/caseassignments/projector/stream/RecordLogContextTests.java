package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class RecordLogContextTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

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
}
