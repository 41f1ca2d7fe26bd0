package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorHaltingAfterFirstWrite;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorProcess;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * A projector killed abruptly (SIGKILL, in a JVM of its own) never has committed an offset past a
 * record whose change is not in PostgreSQL, and a new instance started in its place reaches the oracle.
 */
class ProjectorCrashIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldCommitNothingForATransactionKilledWhileItWaitsAndRecoverEverythingAfterwards() throws Exception {
        ProjectorTopics topics = ProjectorTopics.unique(3).createEvents();
        CaseHistory history = CaseHistory.generate(5150, 500, 5);
        history.seedRows(jdbc);
        String applicationId = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, topics, applicationId);

        try (ProjectorProcess crashing = ProjectorProcess.start(properties);
             EventPublisher publisher = new EventPublisher();
             Connection blocker = DB.dataSource().getConnection()) {
            // Given the projector inside a database transaction that cannot proceed
            blocker.setAutoCommit(false);
            try (Statement lock = blocker.createStatement()) {
                lock.execute("LOCK TABLE case_assignments IN SHARE MODE");
            }
            publisher.publishAll(topics.events(), history.slice(0, 2));
            await("the projector's apply waiting on the table lock (log: " + crashing.log + ")").atMost(TIMEOUT)
                    .until(() -> jdbc.queryForObject("""
                            SELECT count(*) FROM pg_stat_activity
                             WHERE wait_event_type = 'Lock' AND query LIKE '%' || ? || '%'""",
                            Integer.class, AssignmentWriter.UPSERT_NAME) > 0);

            // When it is killed inside that transaction
            crashing.kill();
            blocker.rollback();
        }

        // Then none of its input offsets was committed: those events never reached the database
        assertThat(KafkaOffsets.committed(applicationId, topics.events()).values())
                .as("a new group's offsets are the log start, committed before the stream threads run, and no further")
                .allSatisfy(offset -> assertThat(offset).isZero());
        assertThat(KafkaOffsets.end(topics.events(), 3).values()).anySatisfy(end -> assertThat(end).isPositive());
        assertCommittedOffsetsCoveredByTheDatabase(topics, applicationId);

        // And a new instance on the same state directory, with the rest of the history, reaches the oracle
        try (EventPublisher publisher = new EventPublisher();
             ProjectorInstance restarted = ProjectorInstance.start(properties)) {
            publisher.publishAll(topics.events(), history.slice(1, 2));
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
        }
    }

    @Test
    void shouldNeverHaveCommittedPastTheDatabaseWhenKilledMidStreamAndReachTheOracleAfterARestart() {
        ProjectorTopics topics = ProjectorTopics.unique(3).createEvents();
        CaseHistory history = CaseHistory.generate(8088, 3000, 6);
        history.seedRows(jdbc);
        String applicationId = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, topics, applicationId);
        // Small batches, so the kill lands between many database commits.
        properties.put("projector.sink.max-pending-cases", "200");
        try (ProjectorProcess crashing = ProjectorProcess.start(properties);
             EventPublisher publisher = new EventPublisher()) {
            // Given a projector in the middle of the stream: some cases applied, most not yet
            publisher.publishAll(topics.events(), history.deliveries);
            await("the projector applying its first cases (log: " + crashing.log + ")").atMost(TIMEOUT)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> appliedCases(history) >= history.oracle.size() / 10);

            // When it is killed
            crashing.kill();
        }
        assertThat(appliedCases(history)).as("cases applied when killed").isLessThan(history.oracle.size());

        // Then every record below its committed offsets is in the database, and a restart reaches the oracle
        assertCommittedOffsetsCoveredByTheDatabase(topics, applicationId);
        try (ProjectorInstance restarted = ProjectorInstance.start(properties)) {
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
        }
    }

    @Test
    void shouldLoseAndChangeNothingWhenKilledBetweenTheDatabaseCommitAndTheOffsetCommit() throws Exception {
        ProjectorTopics topics = ProjectorTopics.unique(3).createEvents();
        CaseHistory history = CaseHistory.generate(6061, 600, 5);
        history.seedRows(jdbc);
        String applicationId = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, topics, applicationId);
        // The first batch must hold every event, whatever the machine's load: no event counts as live (no write
        // at a check, decision 21); one stream thread, so no rebalance between threads commits a task's first
        // events as they arrive; and a task commits once idle for 2 s with its input fetched, not after a
        // 25 ms pause (a collection, a busy core) half-way through its buffered records, nor at a commit
        // interval that a slow start-up reached first, nor as a backlog's first batch (write-within, decision 47).
        properties.put("projector.sink.fresh-within", "0s");
        properties.put("projector.sink.write-within", "5m");
        properties.put("projector.streams.threads", "1");
        properties.put("projector.streams.commit-interval", "60s");
        properties.put("projector.sink.check-every", "2s");
        properties.put("projector.sink.quiet-after", "60s");
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(topics.events(), history.deliveries);
        }

        // When the projector's JVM halts right after its first batch committed in PostgreSQL
        try (ProjectorProcess halting = ProjectorProcess.start(ProjectorHaltingAfterFirstWrite.class, properties)) {
            assertThat(halting.awaitExit(TIMEOUT)).as("exit status (log: %s)", halting.log)
                    .isEqualTo(ProjectorHaltingAfterFirstWrite.HALTED);
        }

        // Then that batch is in the database, and no input offset was committed for it
        assertThat(KafkaOffsets.committed(applicationId, topics.events()).values())
                .as("a new group's offsets are the log start, committed before the stream threads run, and no further")
                .allSatisfy(offset -> assertThat(offset).isZero());
        Map<UUID, ProjectionRows.Assignment> atHalt = ProjectionRows.projection(jdbc);
        List<UUID> finished = history.oracle.keySet().stream()
                .filter(caseId -> history.oracle.get(caseId).equals(atHalt.get(caseId))).toList();
        assertThat(finished).as("cases the halted batch brought to their final assignment").isNotEmpty();
        Map<UUID, String> xminAtHalt = xminOf(finished);

        // And a new instance reads that batch again, changes none of its finished rows, and reaches the oracle
        try (ProjectorInstance restarted = ProjectorInstance.start(properties)) {
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
            await("the restarted projector committing its input offsets").atMost(TIMEOUT)
                    .until(() -> KafkaOffsets.caughtUp(applicationId, topics.events(), 3));
        }
        assertThat(xminOf(finished)).as("xmin of the rows the halted batch wrote").isEqualTo(xminAtHalt);
    }

    private Map<UUID, String> xminOf(List<UUID> caseIds) {
        Map<UUID, String> xmin = new java.util.HashMap<>();
        jdbc.query("SELECT case_id, xmin::text FROM case_assignments WHERE case_id = ANY (?)",
                rs -> {
                    xmin.put(rs.getObject(1, UUID.class), rs.getString(2));
                }, (Object) caseIds.toArray(UUID[]::new));
        return xmin;
    }

    private int appliedCases(CaseHistory history) {
        Map<UUID, ProjectionRows.Assignment> projection = ProjectionRows.projection(jdbc);
        return (int) history.oracle.keySet().stream()
                .filter(caseId -> projection.containsKey(caseId) && projection.get(caseId).revision() >= 0).count();
    }

    /** Each input event below the projector's committed offsets has its revision (or a higher one) applied. */
    private void assertCommittedOffsetsCoveredByTheDatabase(ProjectorTopics topics, String applicationId) {
        Map<Integer, Long> committed = KafkaOffsets.committed(applicationId, topics.events());
        Map<UUID, ProjectionRows.Assignment> projection = ProjectionRows.projection(jdbc);
        CaseEventReader reader = new CaseEventReader(AvroEventCodec.singleObject());
        List<String> ahead = new ArrayList<>();
        int checked = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            for (Map.Entry<Integer, Long> partition : committed.entrySet()) {
                TopicPartition tp = new TopicPartition(topics.events(), partition.getKey());
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                while (consumer.position(tp) < partition.getValue()) {
                    for (var record : consumer.poll(Duration.ofMillis(500))) {
                        if (record.offset() >= partition.getValue()) {
                            break;
                        }
                        AssignmentUpdate update = ((Ingested.Accepted) reader.read(record.key(), record.value())).update();
                        ProjectionRows.Assignment applied = projection.get(update.caseId());
                        checked++;
                        if (applied == null || applied.revision() < update.revision()) {
                            ahead.add(tp + "@" + record.offset() + " " + update + " but the database has " + applied);
                        }
                    }
                }
            }
        }
        assertThat(ahead).as("events committed by the projector (%d checked) but not in PostgreSQL", checked).isEmpty();
    }
}
