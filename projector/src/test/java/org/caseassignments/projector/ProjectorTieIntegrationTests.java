package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Two events of one case at one revision with different assignments (an upstream contract violation):
 * the first stays in PostgreSQL whether they share a batch or not, and each conflict is counted.
 */
class ProjectorTieIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ProjectorInstance projector;

    private final JdbcTemplate jdbc = DB.jdbc();

    @AfterAll
    static void stopProjector() {
        if (projector != null) {
            projector.close();
        }
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtOneRevisionWhetherTheyShareABatchOrNot() {
        UUID sameBatch = UUID.randomUUID();
        UUID separateBatches = UUID.randomUUID();
        String group = ProjectorInstance.uniqueApplicationId();
        try (EventPublisher publisher = new EventPublisher()) {
            // Given both events of one case published before the projector starts: its first poll takes
            // both, so they meet in one batch (the conflict counter's stage says so)
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.changed(sameBatch, 3).worker("w-first").supervisor("s-first").build(),
                    CaseEvents.changed(sameBatch, 3).worker("w-second").supervisor("s-second").build()));
            // Not at a check between the two (a busy core can delay the second record past the first 25 ms
            // check): no event counts as live, the task writes once idle for 2 s with its input fetched, and one
            // stream thread, so no rebalance between threads commits the first record alone; nor as a backlog's
            // first batch (write-within, decision 47).
            Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, group);
            properties.put("projector.sink.fresh-within", "0s");
            properties.put("projector.sink.write-within", "5m");
            properties.put("projector.sink.check-every", "2s");
            properties.put("projector.streams.threads", "1");
            projector = ProjectorInstance.start(properties);
            await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 1));
            assertThat(conflicts("batch")).isEqualTo(1);

            // and the two events of another case in two batches: the second once the first is committed
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.changed(separateBatches, 3).worker("w-first").supervisor("s-first").build()));
            await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 1));
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.changed(separateBatches, 3).worker("w-second").supervisor("s-second").build()));
            await().atMost(TIMEOUT).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 1));
        }

        // Then both cases hold the first event, and each conflict was counted once
        assertThat(row(sameBatch)).isEqualTo(row(separateBatches)).isEqualTo("w-first/s-first@3");
        assertThat(conflicts("batch")).isEqualTo(1);
        assertThat(conflicts("database")).isEqualTo(1);
    }

    private String row(UUID caseId) {
        return jdbc.queryForObject("""
                SELECT assigned_worker_sub || '/' || supervisor_sub || '@' || assignment_revision
                  FROM case_assignments WHERE case_id = ?""", String.class, caseId);
    }

    private static double conflicts(String stage) {
        var counter = projector.bean(MeterRegistry.class).find("case_assignments.events.conflicting").tag("stage", stage)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
