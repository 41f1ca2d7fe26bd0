package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/** The projector's semantics end to end, through the real broker into the real database. */
class ProjectorIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ProjectorInstance projector;
    private static EventPublisher publisher;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() {
        projector = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        publisher = new EventPublisher();
    }

    @AfterAll
    static void stopProjector() {
        publisher.close();
        projector.close();
    }

    @Test
    void shouldApplyEachForwardChangeAndBringTheCasesEntityRowsAlong() {
        UUID caseId = UUID.randomUUID();
        UUID placement = Rows.placement(caseId).worker("w-0").supervisor("s-0").revision(0).insert(jdbc);
        UUID kinship = Rows.kinshipOption(caseId).worker("w-0").supervisor("s-0").revision(0).insert(jdbc);

        publish(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build(),
                CaseEvents.changed(caseId, 2).worker("w-2").supervisor("s-2").build(),
                CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());

        awaitProjection(caseId, new ProjectionRows.Assignment("w-2", "s-2", 2));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(entity("placements", placement)).containsEntry("assigned_worker_sub", "w-2")
                    .containsEntry("supervisor_sub", "s-2").containsEntry("assignment_revision", 2L)
                    .containsEntry("row_version", 2L);
            assertThat(entity("kinship_options", kinship)).containsEntry("assigned_worker_sub", "w-2")
                    .containsEntry("assignment_revision", 2L).containsEntry("row_version", 2L);
        });
    }

    @Test
    void shouldHealAPlacementBornWhileItsCaseWasUnknownWhenTheCaseIsCreated() {
        UUID caseId = UUID.randomUUID();
        UUID placement = Rows.placement(caseId).bornUnknown().insert(jdbc);

        publish(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build());

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(entity("placements", placement))
                .containsEntry("assigned_worker_sub", "w-0").containsEntry("supervisor_sub", "s-0")
                .containsEntry("assignment_revision", 0L).containsEntry("row_version", 2L));
        assertThat(meters().get("case_assignments.entity_rows.healed").counter().count()).isPositive();
    }

    @Test
    void shouldReplaceAPlaceholderWithTheCreationAndLetAChangeSupersedeAnother() {
        UUID created = UUID.randomUUID();
        UUID changed = UUID.randomUUID();
        Rows.assignment(created).placeholder().insert(jdbc);
        Rows.assignment(changed).placeholder().insert(jdbc);
        UUID placement = Rows.placement(changed).bornUnknown().insert(jdbc);

        publish(CaseEvents.created(created).worker("w-0").supervisor("s-0").build(),
                CaseEvents.changed(changed, 3).worker("w-3").supervisor("s-3").build());

        awaitProjection(created, new ProjectionRows.Assignment("w-0", "s-0", 0));
        awaitProjection(changed, new ProjectionRows.Assignment("w-3", "s-3", 3));
        assertThat(entity("placements", placement)).containsEntry("assigned_worker_sub", "w-3")
                .containsEntry("assignment_revision", 3L);
    }

    @Test
    void shouldWaitForACreateHoldingTheProjectionRowForShareAndThenCorrectTheRowItInserted() throws Exception {
        UUID caseId = UUID.randomUUID();
        publish(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").build());
        awaitProjection(caseId, new ProjectionRows.Assignment("w-0", "s-0", 0));
        UUID placement = UUID.randomUUID();

        try (Connection create = DB.dataSource().getConnection()) {
            // Given a create transaction, as the mutation API runs it: the projection row FOR SHARE first,
            // then an entity row stamped with the pair it read, not yet committed.
            create.setAutoCommit(false);
            int createPid = createHoldingForShare(create, caseId, placement);

            // When the case is reassigned
            publish(CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());

            // Then the projector's apply waits on that transaction's lock, and has changed nothing yet
            await("the projector's upsert blocked by the create transaction").atMost(TIMEOUT)
                    .until(() -> blockedBy(createPid), blocked -> !blocked.isEmpty());
            assertThat(projectionOf(caseId).revision()).isZero();
            create.commit();
        }

        // And once the create committed, the row it inserted carries the new assignment
        awaitProjection(caseId, new ProjectionRows.Assignment("w-1", "s-1", 1));
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(entity("placements", placement))
                .containsEntry("assigned_worker_sub", "w-1").containsEntry("supervisor_sub", "s-1")
                .containsEntry("assignment_revision", 1L).containsEntry("row_version", 2L));
    }

    @Test
    void shouldCountAppliedSkippedAndBatchesAndExposeStreamsAndConsumerMetrics() {
        UUID caseId = UUID.randomUUID();
        double skippedBefore = counter("case_assignments.events.skipped", "stage", "database");

        publish(CaseEvents.changed(caseId, 1).build(), CaseEvents.changed(caseId, 1).build(),
                CaseEvents.created(caseId).build());

        awaitProjection(caseId, new ProjectionRows.Assignment("worker-1", "supervisor-1", 1));
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(
                counter("case_assignments.events.skipped", "stage", "database") - skippedBefore).isEqualTo(2));
        MeterRegistry meters = meters();
        assertThat(meters.get("case_assignments.events.applied").tag("source", "projector").counter().count()).isPositive();
        assertThat(meters.get("case_assignments.batch.size").summary().count()).isPositive();
        assertThat(meters.get("case_assignments.batch.apply").timer().count()).isPositive();
        List<String> names = meters.getMeters().stream().map(m -> m.getId().getName()).distinct().toList();
        assertThat(names).anyMatch(name -> name.startsWith("kafka.stream."));
        assertThat(meters.find("kafka.consumer.fetch.manager.records.lag.max").meters())
                .extracting(meter -> meter.getId().getTag("client.id"))
                .anySatisfy(client -> assertThat(client).contains("StreamThread"));
    }

    @Test
    void shouldReportStreamsSinkAndDatabaseUp() {
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(projector.health("kafkaStreams")).isEqualTo(Status.UP);
            assertThat(projector.health("projectionSink")).isEqualTo(Status.UP);
            assertThat(projector.health("db")).isEqualTo(Status.UP);
            assertThat(projector.health()).isEqualTo(Status.UP);
        });
    }

    private static int createHoldingForShare(Connection create, UUID caseId, UUID placement) throws Exception {
        try (PreparedStatement lock = create.prepareStatement("""
                SELECT assigned_worker_sub, supervisor_sub, assignment_revision
                  FROM case_assignments WHERE case_id = ? FOR SHARE""")) {
            lock.setObject(1, caseId);
            try (ResultSet rs = lock.executeQuery()) {
                assertThat(rs.next()).isTrue();
                try (PreparedStatement insert = create.prepareStatement("""
                        INSERT INTO placements (id, case_id, status, assigned_worker_sub, supervisor_sub,
                                                assignment_revision, created_by)
                        VALUES (?, ?, 'PROPOSED', ?, ?, ?, 'lock-order-test')""")) {
                    insert.setObject(1, placement);
                    insert.setObject(2, caseId);
                    insert.setString(3, rs.getString(1));
                    insert.setString(4, rs.getString(2));
                    insert.setLong(5, rs.getLong(3));
                    insert.executeUpdate();
                }
            }
        }
        try (ResultSet rs = create.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Backends waiting on a lock that {@code pid} holds, with the statement they wait in. */
    private List<Map<String, Object>> blockedBy(int pid) {
        return jdbc.queryForList("""
                SELECT a.pid, a.query, l.locktype, l.mode
                  FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted
                 WHERE ? = ANY (pg_blocking_pids(a.pid))
                   AND a.wait_event_type = 'Lock'
                   AND a.query LIKE '%' || ? || '%'""", pid, AssignmentWriter.UPSERT_NAME);
    }

    private void publish(SpecificRecord... events) {
        publisher.publishInOrder(TOPICS.events(), List.of(events));
    }

    private void awaitProjection(UUID caseId, ProjectionRows.Assignment expected) {
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> assertThat(projectionOf(caseId)).isEqualTo(expected));
    }

    private ProjectionRows.Assignment projectionOf(UUID caseId) {
        return jdbc.queryForObject("""
                SELECT assigned_worker_sub, supervisor_sub, assignment_revision FROM case_assignments WHERE case_id = ?""",
                (rs, n) -> new ProjectionRows.Assignment(rs.getString(1), rs.getString(2), rs.getLong(3)), caseId);
    }

    private Map<String, Object> entity(String table, UUID id) {
        return jdbc.queryForMap("SELECT assigned_worker_sub, supervisor_sub, assignment_revision, row_version FROM "
                + table + " WHERE id = ?", id);
    }

    private static MeterRegistry meters() {
        return projector.bean(MeterRegistry.class);
    }

    private static double counter(String name, String tag, String value) {
        return meters().get(name).tag("source", "projector").tag(tag, value).counter().count();
    }
}
