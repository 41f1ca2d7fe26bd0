package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Batching never changes the result: the same histories, some of whose events carry the case's jurisdiction and
 * some not, give the same rows when the projector reads them as one backlog batch as when each event is written
 * on its own through the guarded write.
 */
class ProjectorJurisdictionBatchingIntegrationTests {

    private static final TestDatabase BATCHED = TestDatabase.migrated();
    private static final TestDatabase ONE_BY_ONE = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final List<String> JURISDICTIONS = Arrays.asList("georgia", "texas", null);

    @Test
    void shouldGiveTheSameRowsWhetherAHistoryIsWrittenInOneBatchOrEventByEvent() {
        // Given 50 cases whose creation carries a jurisdiction and whose first change does not (the case the
        // reduction lost), and 50 whose events carry one, another or none at random
        Random random = new Random(26);
        List<SpecificRecord> events = new ArrayList<>();
        List<AssignmentUpdate> updates = new ArrayList<>();
        for (int c = 0; c < 100; c++) {
            UUID caseId = UUID.randomUUID();
            int changes = c < 50 ? 1 : 1 + random.nextInt(4);
            for (int revision = 0; revision <= changes; revision++) {
                String jurisdiction = c < 50 ? (revision == 0 ? "georgia" : null)
                        : JURISDICTIONS.get(random.nextInt(JURISDICTIONS.size()));
                String worker = "w-" + revision;
                events.add(revision == 0
                        ? CaseEvents.created(caseId).worker(worker).jurisdiction(jurisdiction).build()
                        : CaseEvents.changed(caseId, revision).worker(worker).jurisdiction(jurisdiction).build());
                updates.add(AssignmentUpdate.changed(caseId, worker, "supervisor-1", revision).withJurisdiction(jurisdiction));
            }
        }

        // When each event is written on its own, in order
        AssignmentWriter writer = new AssignmentWriter(ONE_BY_ONE.jdbc());
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(ONE_BY_ONE.dataSource()));
        updates.forEach(update -> transaction.executeWithoutResult(status -> writer.apply(List.of(update))));

        // and the projector reads them all as one backlog (published before it starts; nothing counts as live)
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(TOPICS.events(), events);
        }
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(BATCHED, TOPICS, group);
        properties.put("projector.sink.fresh-within", "0ms");
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> KafkaOffsets.caughtUp(group, TOPICS.events(), 1));
        }

        // Then both hold the same rows, jurisdictions included
        assertThat(rows(BATCHED.jdbc())).hasSize(100).isEqualTo(rows(ONE_BY_ONE.jdbc()));
    }

    private static List<String> rows(JdbcTemplate jdbc) {
        return jdbc.queryForList("""
                SELECT case_id || ' ' || assigned_worker_sub || '/' || supervisor_sub || '@' || assignment_revision
                       || ' in ' || coalesce(jurisdiction, '(unknown)')
                  FROM case_assignments ORDER BY case_id""", String.class);
    }
}
