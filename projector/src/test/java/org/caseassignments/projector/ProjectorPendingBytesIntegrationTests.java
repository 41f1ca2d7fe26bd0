package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * A task's memory is bounded by bytes as well as by cases: a backlog of events that carry 8 KB of headers each is
 * written in batches whose records fit the byte budget, not gathered whole until the backlog ends.
 */
class ProjectorPendingBytesIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final int EVENTS = 600;

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldWriteEarlyOnceThePendingRecordsHoldTheByteBudget() {
        // Given a backlog of 600 cases whose events carry 8 KB of headers each (about 5 MB in all)
        byte[] header = new byte[8 * 1024];
        Arrays.fill(header, (byte) 'h');
        try (EventPublisher publisher = new EventPublisher()) {
            for (int i = 0; i < EVENTS; i++) {
                UUID caseId = UUID.randomUUID();
                RecordHeaders headers = new RecordHeaders();
                headers.add("trace", header);
                publisher.publishRaw(TOPICS.events(), caseId.toString(), AvroEventCodec.singleObject()
                        .encode(TOPICS.events(), CaseEvents.created(caseId).build(), false), headers);
            }
        }

        // When a projector with a 256 KB budget per task reads it, with nothing else ending a batch early
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.writingOnlyAtTheByteBudget(
                ProjectorInstance.properties(DB, TOPICS, group), "256KB");
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
                assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Long.class)).isEqualTo(EVENTS);
                assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
            });

            // Then no batch held much more than the budget's worth of records (about 30; a commit asked for is
            // taken once the events already fetched are processed), where the whole backlog made one batch before
            DistributionSummary batches = projector.bean(MeterRegistry.class).get("case_assignments.batch.size").summary();
            assertThat(batches.max()).isLessThan(EVENTS / 2.0);
            assertThat(batches.count()).isGreaterThan(2);
        }
    }
}
