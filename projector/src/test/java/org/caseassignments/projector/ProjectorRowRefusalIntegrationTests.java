package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.KafkaStreams;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * PostgreSQL refuses rows for reasons outside the data classes 22, 23 and 54: a trigger's plain {@code RAISE}
 * (P0001) and a row-level-security {@code WITH CHECK} (42501). What it refuses for one row is dead-lettered with
 * its SQLSTATE and the partition moves on; what it refuses for every row (a revoked privilege) is retried, with
 * health DOWN, until the database takes it — and nothing of it is dead-lettered.
 */
class ProjectorRowRefusalIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final String ROLE = "projector_" + UUID.randomUUID().toString().substring(0, 8);

    private static ProjectorInstance projector;
    private static String group;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() {
        JdbcTemplate jdbc = DB.jdbc();
        jdbc.execute("""
                CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.assigned_worker_sub = 'poison-trigger' THEN
                        RAISE EXCEPTION 'test trigger refuses case %', NEW.case_id;
                    END IF;
                    RETURN NEW;
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_refuse BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse()""");
        // A trigger that refuses every row while this table holds one
        // (counting its refusals in a sequence, which the refusal does not roll back)
        jdbc.execute("CREATE TABLE test_refuse_every_row (refusing boolean)");
        jdbc.execute("CREATE SEQUENCE test_refused_every_row");
        jdbc.execute("""
                CREATE FUNCTION test_refuse_every_row() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM test_refuse_every_row) THEN
                        PERFORM nextval('test_refused_every_row');
                        RAISE EXCEPTION 'test trigger refuses every case, now %', NEW.case_id;
                    END IF;
                    RETURN NEW;
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_refuse_every_row BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse_every_row()""");
        jdbc.execute("ALTER TABLE case_assignments ENABLE ROW LEVEL SECURITY");
        jdbc.execute("""
                CREATE POLICY test_policy ON case_assignments USING (true)
                  WITH CHECK (assigned_worker_sub IS DISTINCT FROM 'poison-policy')""");
        // The projector as a role of its own, not the superuser (who passes every policy and privilege check)
        jdbc.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + ROLE + "'");
        jdbc.execute("GRANT USAGE ON SCHEMA public TO " + ROLE);
        jdbc.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + ROLE);
        jdbc.execute("GRANT USAGE ON SEQUENCE test_refused_every_row TO " + ROLE);
        group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, group);
        // (an embedded server's URL names its user too, which would win over the username)
        properties.put("spring.datasource.url", DB.jdbcUrl().replaceAll("([?&])user=[^&]*", "$1user=" + ROLE));
        properties.put("spring.datasource.username", ROLE);
        properties.put("spring.datasource.password", ROLE);
        projector = ProjectorInstance.start(properties);
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
    }

    @Test
    void shouldDeadLetterWhatATriggerOrAPolicyRefusesForOneRowWithItsSqlstateAndApplyTheRecordsBehindIt() {
        UUID byTrigger = UUID.randomUUID();
        UUID byPolicy = UUID.randomUUID();
        UUID before = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        RecordMetadata triggerRefused;
        RecordMetadata policyRefused;
        try (EventPublisher publisher = new EventPublisher()) {
            // Given a case the database holds, then two events it refuses for their rows, then good events
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(before).worker("w-before").build()));
            triggerRefused = publisher.publishRaw(TOPICS.events(), byTrigger.toString(), AvroEventCodec.singleObject()
                    .encode(TOPICS.events(), CaseEvents.created(byTrigger).worker("poison-trigger").build(), false));
            policyRefused = publisher.publishRaw(TOPICS.events(), byPolicy.toString(), AvroEventCodec.singleObject()
                    .encode(TOPICS.events(), CaseEvents.created(byPolicy).worker("poison-policy").build(), false));
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.created(after).worker("w-after").build(),
                    CaseEvents.changed(before, 1).worker("w-before-1").build()));
        }

        // Then the good events are applied and the committed offset reaches the end of the partition
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(worker(after)).isEqualTo("w-after");
            assertThat(worker(before)).isEqualTo("w-before-1");
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
        });
        // and each refused event is dead-lettered once with its SQLSTATE
        List<ConsumerRecord<byte[], byte[]>> dead = deadLetters(byTrigger, byPolicy);
        assertThat(dead).extracting(letter -> DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET))
                .containsExactly(Long.toString(triggerRefused.offset()), Long.toString(policyRefused.offset()));
        assertThat(dead).extracting(letter -> DeadLetters.header(letter.headers(), "dlq.sqlstate"))
                .containsExactly("P0001", "42501");
        assertThat(dead).extracting(letter -> DeadLetters.header(letter.headers(), DeadLetters.REASON))
                .containsOnly("DATABASE_ROW_REFUSED");
        assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.MESSAGE)).contains("test trigger refuses");
        assertThat(projector.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(projector.health("readiness")).isEqualTo(Status.UP);
    }

    @Test
    void shouldRetryWhatIsRefusedForEveryRowWithHealthDownAndApplyItOnceTheDatabaseTakesItWithoutDeadLetters() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        // Given a database that refuses every row: the projector may no longer write the projection
        jdbc.execute("REVOKE INSERT, UPDATE ON case_assignments FROM " + ROLE);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(TOPICS.events(), List.of(
                    CaseEvents.created(first).worker("w-first").build(),
                    CaseEvents.created(second).worker("w-second").build()));
        }

        // Then the sink says it is failing, and nothing moves
        await().atMost(TIMEOUT).until(() -> projector.health("projectionSink").equals(Status.DOWN));
        assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isFalse();

        // When the database takes rows again
        jdbc.execute("GRANT INSERT, UPDATE ON case_assignments TO " + ROLE);

        // Then the events are applied, the offset moves past them, the sink is UP, and none was dead-lettered
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(worker(first)).isEqualTo("w-first");
            assertThat(worker(second)).isEqualTo("w-second");
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
            assertThat(projector.health("projectionSink")).isEqualTo(Status.UP);
        });
        assertThat(deadLetters(first, second)).isEmpty();
    }

    /**
     * Refusals of the trigger of every row past which an isolation surely ran: more than three attempts at the same
     * batch (one refusal each) and the ten rows written alone before the probe.
     */
    private static final long ISOLATION_RAN = 3 + org.caseassignments.store.BatchIsolation.EVERY_ROW_AFTER;

    @Test
    void shouldDeadLetterNothingWhileATriggerRefusesEveryRowAndApplyAllOnceItLetsThemThrough() {
        List<UUID> cases = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            cases.add(UUID.randomUUID());
        }
        // Given a case the projector committed (the row its every-row probe rewrites), a trigger that refuses every
        // row, and 50 events pending
        UUID stored = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(stored).worker("w-stored").build()));
        }
        await().atMost(TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM case_assignments WHERE case_id = ?", Integer.class, stored) == 1);
        jdbc.update("INSERT INTO test_refuse_every_row VALUES (true)");
        try {
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(TOPICS.events(), cases.stream()
                        .map(id -> (org.apache.avro.specific.SpecificRecord) CaseEvents.created(id).worker("w-" + id).build())
                        .toList());
            }

            // Then the sink says it is failing, naming the SQLSTATE, and nothing moves
            await().atMost(TIMEOUT).until(() -> projector.health("projectionSink").equals(Status.DOWN));
            // And the isolation ran: the attempts at the same batch cost one refusal each, an isolation its rows
            // written alone and the probe's
            await().atMost(TIMEOUT).until(() -> jdbc.queryForObject(
                    "SELECT last_value FROM test_refused_every_row", Long.class) > ISOLATION_RAN);
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isFalse();
            assertThat(deadLetters(cases.toArray(UUID[]::new))).isEmpty();
        } finally {
            // When the trigger lets rows through again
            jdbc.update("DELETE FROM test_refuse_every_row");
        }

        // Then all 50 are applied, the offset moves past them, and none was dead-lettered
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> {
            assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ANY (?::uuid[])",
                    Integer.class, (Object) cases.stream().map(UUID::toString).toArray(String[]::new))).isEqualTo(50);
            assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 1)).isTrue();
        });
        assertThat(deadLetters(cases.toArray(UUID[]::new))).isEmpty();
    }

    private String worker(UUID caseId) {
        return jdbc.query("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                rs -> rs.next() ? rs.getString(1) : null, caseId);
    }

    /** The dead letters of these cases, in the order of their source offsets. */
    private static List<ConsumerRecord<byte[], byte[]>> deadLetters(UUID... cases) {
        List<String> keys = java.util.Arrays.stream(cases).map(UUID::toString).toList();
        return DeadLetterReader.read(TOPICS.deadLetter(), 0, Duration.ofSeconds(2)).stream()
                .filter(letter -> letter.key() != null && keys.contains(new String(letter.key(), StandardCharsets.UTF_8)))
                .sorted(java.util.Comparator.comparingLong(letter -> Long.parseLong(
                        DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET))))
                .toList();
    }
}
