package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorProcess;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * The projector's JSON log lines as deployed (its own configuration, in a JVM of its own): a line about a record
 * that carries the upstream's W3C trace context names the trace under ECS's {@code trace.id}, beside the record.
 */
class ProjectorLogFormatIntegrationTests {

    private static final TestDatabase DB = TestDatabase.empty();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void shouldNameTheRecordsTraceAsEcsTraceIdOnItsJsonLine() {
        try (ProjectorProcess projector = ProjectorProcess.startLoggingAsDeployed(
                ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId()))) {
            // Given a bad record that carries the upstream's trace context
            RecordMetadata sent;
            try (EventPublisher publisher = new EventPublisher()) {
                sent = publisher.publishRaw(TOPICS.events(), UUID.randomUUID().toString(), new byte[] {0x7f},
                        Map.of("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"));
            }

            // When it is dead-lettered, then the JSON line about it names the record and the trace as fields
            String line = await("the dead letter's JSON line (log: " + projector.log + ")").atMost(TIMEOUT)
                    .until(() -> lines(projector).filter(l -> l.contains("Dead-lettered " + sent.topic())).findFirst(),
                            Optional::isPresent).orElseThrow();
            assertThat(line).startsWith("{").contains("\"trace.id\":\"" + TRACE_ID + "\"")
                    .contains("\"kafka_offset\":\"" + sent.offset() + "\"").doesNotContain("\"trace_id\"");
        }
    }

    private static Stream<String> lines(ProjectorProcess projector) {
        try {
            return Files.readAllLines(projector.log).stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
