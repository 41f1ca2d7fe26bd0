package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The line about an event dropped because an earlier event of its batch claims its case's revision with another
 * assignment is written while its own record is processed: it carries that record's topic, partition, offset and
 * case id, as docs/operations.md tells operators to find it.
 */
class ProjectorConflictLogContextIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ProjectorInstance projector;
    private static final ListAppender<ILoggingEvent> LINES = new ListAppender<>();

    @AfterAll
    static void stopProjector() {
        ((Logger) LoggerFactory.getLogger(BatchWriter.class)).detachAppender(LINES);
        if (projector != null) {
            projector.close();
        }
    }

    @Test
    void shouldLogABatchConflictInTheDroppedRecordsContextWhenItArrives() {
        // Given a projector that writes a batch only after 2 s without input, so that two events sent together
        // meet in one batch, its lines about dropped events captured
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, group);
        properties.put("projector.sink.fresh-within", "0s");
        properties.put("projector.sink.write-within", "5m");
        properties.put("projector.sink.check-every", "2s");
        properties.put("projector.streams.threads", "1");
        projector = ProjectorInstance.start(properties);
        LINES.start();
        ((Logger) LoggerFactory.getLogger(BatchWriter.class)).addAppender(LINES);
        UUID caseId = UUID.randomUUID();

        // When two events claim one revision of the case with different assignments, at offsets 0 and 1
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), List.of(
                    CaseEvents.changed(caseId, 3).worker("w-first").supervisor("s-first").build(),
                    CaseEvents.changed(caseId, 3).worker("w-second").supervisor("s-second").build()));
        }
        await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 1));

        // Then they met in one batch, and the line about the second names its record: offset 1, and its case
        assertThat(conflicts("batch")).isEqualTo(1);
        assertThat(List.copyOf(LINES.list)).filteredOn(line -> line.getFormattedMessage().contains("Case " + caseId))
                .singleElement().satisfies(line -> {
                    assertThat(line.getFormattedMessage()).contains("w-second");
                    assertThat(line.getMDCPropertyMap())
                            .containsEntry("kafka_topic", TOPICS.events())
                            .containsEntry("kafka_partition", "0")
                            .containsEntry("kafka_offset", "1")
                            .containsEntry("case_id", caseId.toString());
                });
    }

    private static double conflicts(String stage) {
        var counter = projector.bean(MeterRegistry.class).find("case_assignments.events.conflicting").tag("stage", stage)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
