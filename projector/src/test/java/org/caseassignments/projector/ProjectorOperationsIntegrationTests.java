package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.caseassignments.projector.stream.DeadLetterLog;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.OpsDefinitions;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * What an operator is given holds for the projector as it runs: after a short realistic stream (creates,
 * reassignments, a conflict, a bad record with an upstream trace), every metric the projector's dashboard
 * and alerting rules under {@code ops/} name is in its {@code /actuator/prometheus} scrape, and the log line
 * about the dead-lettered record names that record and the upstream's trace.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ProjectorOperationsIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();
    static final ProjectorTopics TOPICS = ProjectorTopics.unique(2).createEvents();
    static final String APPLICATION_ID = ProjectorInstance.uniqueApplicationId();
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ProjectorInstance.properties(DB, TOPICS, APPLICATION_ID).forEach((name, value) -> registry.add(name, () -> value));
    }

    @Autowired
    Environment environment;

    @Autowired
    JdbcTemplate jdbc;

    private final ListAppender<ILoggingEvent> deadLetterLines = new ListAppender<>();

    @BeforeEach
    void captureDeadLetterLines() {
        deadLetterLines.start();
        ((Logger) LoggerFactory.getLogger(DeadLetterLog.class)).addAppender(deadLetterLines);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LoggerFactory.getLogger(DeadLetterLog.class)).detachAppender(deadLetterLines);
    }

    @Test
    void shouldExposeEveryMetricItsDashboardAndAlertsNameAfterARealisticRun() {
        // Given a short stream like production's: cases created and reassigned, an upstream conflict and a bad record
        List<UUID> cases = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        try (EventPublisher publisher = new EventPublisher()) {
            for (UUID caseId : cases) {
                publisher.publishInOrder(TOPICS.events(), List.of(
                        CaseEvents.created(caseId).worker("w-1").supervisor("s-1").jurisdiction("georgia").build(),
                        CaseEvents.changed(caseId, 1).worker("w-2").supervisor("s-1").build()));
            }
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.changed(cases.get(0), 2).worker("w-first").supervisor("s-1").build(),
                    CaseEvents.changed(cases.get(0), 2).worker("w-second").supervisor("s-1").build()));
            publisher.publishRaw(TOPICS.events(), cases.get(1).toString(), "not an event".getBytes(StandardCharsets.UTF_8));
        }
        await().atMost(TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM case_assignments WHERE assignment_revision >= 1", Integer.class) == cases.size());
        await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(APPLICATION_ID, TOPICS.events(), TOPICS.partitions()));

        // When the projector is scraped
        Set<String> named = OpsDefinitions.metricNames("projector");
        // Then nothing the dashboard or the alerts name is missing (gauges of a task appear once it has run)
        await().atMost(TIMEOUT).untilAsserted(() -> {
            Set<String> missing = new TreeSet<>(named);
            missing.removeAll(OpsDefinitions.exposed(scrape()));
            assertThat(missing).as("named by ops/grafana/projector.json or ops/prometheus/projector.rules.yml, "
                    + "but not in /actuator/prometheus").isEmpty();
        });
        assertThat(named).contains("case_assignments_lag_end_to_end_seconds_bucket", "case_assignments_projector_ready");
        // and the new gauge says what the readiness probe says
        assertThat(scrape()).containsPattern("(?m)^case_assignments_projector_ready\\{[^}]*\\} 1\\.0$");
    }

    @Test
    void shouldNameTheRecordAndTheUpstreamTraceOnTheLineAboutADeadLetter() {
        // Given a bad record that carries the upstream's W3C trace context
        RecordSent sent;
        try (EventPublisher publisher = new EventPublisher()) {
            var metadata = publisher.publishRaw(TOPICS.events(), UUID.randomUUID().toString(), new byte[] {0x7f},
                    Map.of("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"));
            sent = new RecordSent(metadata.topic(), metadata.partition(), metadata.offset());
        }

        // When it is dead-lettered, then its log line names where it came from and the trace, as MDC fields
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(deadLetterLines.list).anySatisfy(line -> {
            assertThat(line.getFormattedMessage()).contains("UNKNOWN_FRAMING");
            assertThat(line.getMDCPropertyMap()).containsEntry("kafka_topic", sent.topic())
                    .containsEntry("kafka_partition", Integer.toString(sent.partition()))
                    .containsEntry("kafka_offset", Long.toString(sent.offset()))
                    .containsEntry("trace_id", TRACE_ID);
        }));
    }

    private String scrape() {
        // the management port when it is a separate one, the application's port otherwise
        String port = environment.getProperty("local.management.port", environment.getProperty("local.server.port"));
        return RestClient.create("http://localhost:" + port).get().uri("/actuator/prometheus").retrieve()
                .body(String.class);
    }

    private record RecordSent(String topic, int partition, long offset) {
    }
}
