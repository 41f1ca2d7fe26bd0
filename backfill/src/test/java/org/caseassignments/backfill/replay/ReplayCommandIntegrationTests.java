package org.caseassignments.backfill.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.backfill.Tables;
import org.caseassignments.backfill.TopicRecords;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

@RealDatabaseTest
class ReplayCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    final String topic = TestKafka.uniqueTopic("case.events");
    final String deadLetters = TestKafka.uniqueTopic("case.events.dlq");
    Cli cli;

    @BeforeEach
    void topics() {
        cli = new Cli(commandLine);
        TestKafka.createTopics(3, topic, deadLetters);
        jdbc.execute("TRUNCATE case_assignments, case_assignment_history, placements, kinship_options");
    }

    /**
     * Replay beside the running Kafka Streams projector is proven in the projector module
     * ({@code ProjectorAlongsideReplayIntegrationTests}); this one shows that a second replay over what a first
     * one applied rewrites no row, and dead-letters a bad record with its coordinates each time.
     */
    @Test
    void shouldChangeNoRowWhenReplayingFromTheBeginningWhatTheProjectionAlreadyHolds() throws Exception {
        // Given a projection that holds every event, a bad record among them, and entity rows that followed
        Map<UUID, Long> highest = publishRandomHistories(60, new Random());
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, UUID.randomUUID().toString(), "not an event".getBytes(StandardCharsets.UTF_8));
        }
        highest.keySet().forEach(caseId -> Rows.placement(caseId).bornUnknown().insert(jdbc));
        Cli.Run first = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID(), "--batch-size", "40");
        assertThat(first.exit()).as(first.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        var before = Tables.withXmin(jdbc);

        // When the replay re-reads the topic from the beginning
        Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID(), "--batch-size", "40");

        // Then no row was rewritten and no history entry added or changed, and the bad record went to the
        // dead-letter topic with its coordinates
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("applied \\(moved a row\\)\\s+0\\n")
                .containsPattern("dead-lettered to " + deadLetters + "\\s+1\\n");
        assertThat(Tables.withXmin(jdbc)).isEqualTo(before);
        List<ConsumerRecord<byte[], byte[]>> dead = readAll(deadLetters);
        assertThat(dead).hasSize(2);
        assertThat(DeadLetters.header(dead.get(1).headers(), DeadLetters.REASON)).isEqualTo("UNKNOWN_FRAMING");
        assertThat(DeadLetters.header(dead.get(1).headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(topic);
    }

    @Test
    void shouldDeadLetterAnEventPostgresqlRefusesApplyTheOthersAndReachTheEndOffsets() {
        // Given a database that refuses one value, and events of three cases, one of them carrying it
        jdbc.execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
        try {
            UUID refused = UUID.randomUUID();
            UUID before = UUID.randomUUID();
            UUID after = UUID.randomUUID();
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(
                        CaseEvents.created(before).worker("w-before").build(),
                        CaseEvents.changed(refused, 2).worker("poison").build(),
                        CaseEvents.created(after).worker("w-after").build()));
            }
            String group = "replay-" + UUID.randomUUID();

            // When
            Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group);

            // Then the replay finishes, the refused event is dead-lettered with the database's reason, the others applied
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(run.out()).containsPattern("dead-lettered to " + deadLetters + "\\s+1\\n");
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactlyInAnyOrder(before, after);
            List<ConsumerRecord<byte[], byte[]>> dead = readAll(deadLetters);
            assertThat(dead).hasSize(1);
            assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(refused.toString());
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.REASON)).isEqualTo("DATABASE_INTEGRITY_VIOLATION");
            assertThat(DeadLetters.header(dead.get(0).headers(), "dlq.sqlstate")).isEqualTo("23514");
            Map<TopicPartition, Long> written = new HashMap<>(LiveApplier.endOffsets(topic));
            written.values().removeIf(end -> end == 0);
            assertThat(committed(group)).isEqualTo(written);
        } finally {
            jdbc.execute("ALTER TABLE case_assignments DROP CONSTRAINT test_reject");
        }
    }

    @Test
    void shouldDeadLetterAnEventATriggerRefusesOnEveryAttemptApplyTheOthersAndLetResumePassIt() {
        // Given a trigger that refuses one worker (P0001: the row's or the database's, the writer cannot tell at once)
        try (RefusingTrigger trigger = RefusingTrigger.refusing(jdbc, "poison")) {
            UUID refused = UUID.randomUUID();
            List<UUID> good = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(
                        CaseEvents.created(good.get(0)).worker("w-0").build(),
                        CaseEvents.created(good.get(1)).worker("w-1").build(),
                        CaseEvents.changed(refused, 2).worker("poison").build(),
                        CaseEvents.created(good.get(2)).worker("w-2").build(),
                        CaseEvents.created(good.get(3)).worker("w-3").build()));
            }
            String group = "replay-" + UUID.randomUUID();

            // When
            Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group);
            Cli.Run resumed = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group,
                    "--resume");

            // Then the run retried, isolated the refused event, dead-lettered it and went on to the end offsets
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(run.out()).containsPattern("dead-lettered to " + deadLetters + "\\s+1\\n");
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactlyInAnyOrderElementsOf(good);
            List<ConsumerRecord<byte[], byte[]>> dead = readAll(deadLetters);
            assertThat(dead).hasSize(1);
            assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(refused.toString());
            assertThat(DeadLetters.header(dead.get(0).headers(), DeadLetters.REASON)).isEqualTo("DATABASE_ROW_REFUSED");
            assertThat(DeadLetters.header(dead.get(0).headers(), "dlq.sqlstate")).isEqualTo("P0001");
            // and --resume starts after it
            assertThat(resumed.exit()).as(resumed.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(resumed.out()).containsPattern("records read\\s+0\\n");
        }
    }

    @Test
    void shouldDeadLetterTheRefusedRevisionsOfACaseWhoseNewestIsRefusedAndApplyTheRevisionsAroundThemWhateverTheBatchSize() {
        // Given a trigger that refuses one worker, and two cases whose newest revision carries it, one also a middle one
        try (RefusingTrigger trigger = RefusingTrigger.refusing(jdbc, "poison")) {
            UUID caseId = UUID.randomUUID();
            UUID other = UUID.randomUUID();
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(
                        CaseEvents.created(caseId).worker("w-0").build(),
                        CaseEvents.changed(caseId, 1).worker("poison").build(),
                        CaseEvents.created(other).worker("w-other").build(),
                        CaseEvents.changed(caseId, 2).worker("w-2").build(),
                        CaseEvents.changed(other, 1).worker("poison").build(),
                        CaseEvents.changed(caseId, 3).worker("poison").build()));
            }
            List<String> outcomes = new ArrayList<>();
            for (String batchSize : List.of("1", "1000")) {
                jdbc.execute("TRUNCATE case_assignments, case_assignment_history, placements, kinship_options");
                String letters = TestKafka.uniqueTopic("case.events.dlq");
                TestKafka.createTopics(1, letters);

                // When the topic is replayed one event per batch, and all in one batch
                Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", letters, "--group",
                        "replay-" + UUID.randomUUID(), "--batch-size", batchSize);

                // Then the refused events are dead-lettered, and only those; the history never holds their worker
                assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
                List<String> dead = readAll(letters).stream().map(letter -> new String(letter.key(), StandardCharsets.UTF_8)
                        + "@" + DeadLetters.header(letter.headers(), DeadLetters.SOURCE_PARTITION) + "/"
                        + DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET)).sorted().toList();
                assertThat(dead).hasSize(3);
                assertThat(String.join(",", Tables.history(jdbc))).doesNotContain("poison");
                outcomes.add(Tables.projection(jdbc).stream().map(row -> row.get("case_id") + " "
                        + row.get("assignment_revision") + " " + row.get("assigned_worker_sub")).sorted().toList()
                        + " " + Tables.history(jdbc) + " " + dead);
            }
            assertThat(outcomes.get(1)).isEqualTo(outcomes.get(0));
            assertThat(outcomes.get(0)).contains(caseId + " 2 w-2", other + " 0 w-other", caseId + "@0 w-0/",
                    caseId + "@2 w-2/", other + "@0 w-other/");
        }
    }

    @Test
    void shouldDeadLetterEveryRowATriggerRefusesWhenTheReplayCommittedNoRowItsProbeCouldRewrite() {
        // Given a case stored by another writer, then a trigger that refuses every row
        UUID stored = UUID.randomUUID();
        new AssignmentWriter(jdbc)
                .apply(List.of(AssignmentUpdate.created(stored, "w-stored", "s")));
        try (RefusingTrigger everyRow = RefusingTrigger.refusingEveryRow(jdbc)) {
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(CaseEvents.created(UUID.randomUUID()).worker("w-0").build(),
                        CaseEvents.created(UUID.randomUUID()).worker("w-1").build()));
            }

            // When
            Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                    "replay-" + UUID.randomUUID());

            // Then the replay committed no row it could probe, so nothing tells the trigger from two poison events: both
            // are dead-lettered with their SQLSTATE (for redrive once the trigger is gone), as without a probe
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(readAll(deadLetters)).hasSize(2);
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactly(stored);
        }
    }

    @Test
    void shouldApplyWhatTheProjectionLacksAndCommitTheEndOffsetsForItsOwnGroup() {
        // Given events the projection never saw
        Instant published = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Map<UUID, Long> highest = publishRandomHistories(40, new Random());
        String group = "replay-" + UUID.randomUUID();

        // When
        Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group,
                "--batch-size", "15");
        Cli.Run again = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group, "--resume");

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        Map<UUID, Long> projected = new HashMap<>();
        Tables.projection(jdbc).forEach(row -> projected.put((UUID) row.get("case_id"), (Long) row.get("assignment_revision")));
        assertThat(projected).isEqualTo(highest);
        assertThat(committed(group)).isEqualTo(LiveApplier.endOffsets(topic));
        assertThat(again.exit()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(again.out()).containsPattern("records read\\s+0\\n");
        // and the history holds every revision of every case once, also those a newer one overtook in its batch
        List<String> history = new ArrayList<>();
        highest.forEach((caseId, last) -> {
            for (long revision = 0; revision <= last; revision++) {
                history.add(caseId + "@" + revision + " " + (revision == 0 ? "worker-1" : "w-" + revision) + "/supervisor-1");
            }
        });
        assertThat(Tables.history(jdbc)).containsExactlyInAnyOrderElementsOf(history);
        assertThat(jdbc.queryForList("SELECT occurred_at FROM case_assignment_history", Instant.class))
                .as("each entry has its event's time").allSatisfy(at -> assertThat(at).isBetween(published, Instant.now()));
    }

    @Test
    void shouldCommitNoOffsetOfABatchTheDatabaseFailedTransientlyAndResumeFromTheLastCommittedOne() {
        // Given a database that fails one case's write with a serialization failure, a transient error
        jdbc.execute("""
                CREATE FUNCTION test_serialization_failure() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.assigned_worker_sub = 'contended' THEN
                        RAISE EXCEPTION 'could not serialize access' USING ERRCODE = '40001';
                    END IF;
                    RETURN NEW;
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_serialization_failure BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_serialization_failure()""");
        try {
            UUID contended = UUID.randomUUID();
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(CaseEvents.changed(contended, 1).worker("contended").build()));
            }
            String group = "replay-" + UUID.randomUUID();

            // When
            Cli.Run failed = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group);

            // Then it stops without dead-lettering the event or committing its offset
            assertThat(failed.exit()).as(failed.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(failed.err()).contains("run again with --resume");
            assertThat(committed(group)).isEmpty();

            // And once the database accepts it, --resume applies it
            jdbc.execute("DROP TRIGGER test_serialization_failure ON case_assignments");
            Cli.Run resumed = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group, "--resume");
            assertThat(resumed.exit()).as(resumed.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class,
                    contended)).isEqualTo("contended");
        } finally {
            jdbc.execute("DROP TRIGGER IF EXISTS test_serialization_failure ON case_assignments");
            jdbc.execute("DROP FUNCTION IF EXISTS test_serialization_failure()");
        }
    }

    @Test
    void shouldSayNothingWasWrittenAndToRunTheDryRunAgainWhenADryRunFails() {
        // Given a database that fails one case's write
        try (RefusingTrigger failing = RefusingTrigger.failingToSerialize(jdbc, "refused")) {
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(CaseEvents.changed(UUID.randomUUID(), 1).worker("refused").build()));
            }
            String group = "replay-" + UUID.randomUUID();

            // When
            Cli.Run failed = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group,
                    "--dry-run");

            // Then it says a dry run wrote nothing and is run again as it was, not resumed
            assertThat(failed.exit()).as(failed.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(failed.err()).contains("nothing was written", "run the dry run again")
                    .doesNotContain("--resume");
            assertThat(committed(group)).isEmpty();
        }
    }

    @Test
    void shouldWriteNoRowNoOffsetAndNoDeadLetterOnADryRunAndReportWhatARunWouldDo() {
        // Given events of two cases the projection never saw
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(first).worker("w-0").build(),
                    CaseEvents.changed(first, 1).worker("w-1").build(), CaseEvents.created(second).worker("w-0").build()));
        }
        String group = "replay-" + UUID.randomUUID();

        // When
        Cli.Run dryRun = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group,
                "--dry-run");

        // Then it reports what a run would apply, and wrote no row, no offset and no letter
        assertThat(dryRun.exit()).as(dryRun.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(dryRun.out()).startsWith("backfill replay --dry-run").containsPattern("records read\\s+3\\n")
                .containsPattern("applied \\(moved a row\\)\\s+2\\n");
        assertThat(Tables.projection(jdbc)).isEmpty();
        assertThat(Tables.history(jdbc)).isEmpty();
        assertThat(committed(group)).isEmpty();

        // And with a record it cannot read among them, it says it would dead-letter it, exits as the run would, and
        // sends nothing to the dead-letter topic
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, UUID.randomUUID().toString(), "not an event".getBytes(StandardCharsets.UTF_8));
        }
        Cli.Run withBadRecord = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group", group,
                "--dry-run");
        assertThat(withBadRecord.exit()).as(withBadRecord.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(withBadRecord.out()).containsPattern("dead-lettered to " + deadLetters + "\\s+1\\n");
        assertThat(LiveApplier.endOffsets(deadLetters).values()).containsOnly(0L);
        assertThat(Tables.projection(jdbc)).isEmpty();
        assertThat(committed(group)).isEmpty();
        assertThat(cli.run("replay", "--help").out()).contains("--dry-run");
    }

    @Test
    void shouldStartAtTheTimestampGiven() {
        UUID early = UUID.randomUUID();
        UUID late = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.changed(early, 1).build()));
            Instant from = Instant.now().plusMillis(1);
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> Instant.now().isAfter(from));
            publisher.publishInOrder(topic, List.of(CaseEvents.changed(late, 1).build()));

            Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters,
                    "--group", "replay-" + UUID.randomUUID(), "--from-timestamp", from.toString());

            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactly(late);
        }
    }

    @Test
    void shouldExitTwoWhenATopicDoesNotExist() {
        Cli.Run run = cli.run("replay", "--topics", TestKafka.uniqueTopic("absent"), "--group", "replay-" + UUID.randomUUID());

        assertThat(run.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("does not exist");
    }

    /** Publishes shuffled histories (creation plus changes 1..n) and returns each case's highest revision. */
    @Test
    void shouldDeadLetterWhatBreaksTheKeyContractOrIsTooLargeToForwardWholeAndApplyTheRest() {
        // Given records breaking the key contract, bytes after a record, and an undecodable value of the size
        // that used to wedge a partition (its dead letter with headers no longer fits the dead-letter topic)
        UUID caseId = UUID.randomUUID();
        AvroEventCodec codec = AvroEventCodec.singleObject();
        byte[] trailing = codec.encode(topic, CaseEvents.changed(caseId, 9).worker("w-trailing").build(), false);
        byte[] oversized = new byte[1_048_388];
        java.util.Arrays.fill(oversized, (byte) '{');
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, "not-a-uuid", codec.encode(topic, CaseEvents.changed(caseId, 6).build(), false));
            publisher.publishRaw(topic, UUID.randomUUID().toString(), codec.encode(topic, CaseEvents.changed(caseId, 7).build(), false));
            publisher.publishRaw(topic, null, codec.encode(topic, CaseEvents.changed(caseId, 8).build(), false));
            publisher.publishRaw(topic, caseId.toString(), java.util.Arrays.copyOf(trailing, trailing.length + 1));
            publisher.publishRaw(topic, caseId.toString(), oversized);
            publisher.publishInOrder(topic, List.of(CaseEvents.changed(caseId, 1).worker("w-good").build()));
        }

        // When
        Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID());

        // Then only the good record is applied, and each bad one is dead-lettered once with its reason
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("dead-lettered to " + deadLetters + "\\s+5\\n");
        assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, assignment_revision FROM case_assignments"))
                .containsEntry("assigned_worker_sub", "w-good").containsEntry("assignment_revision", 1L);
        List<ConsumerRecord<byte[], byte[]>> dead = readAll(deadLetters);
        assertThat(dead).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.REASON)).containsExactlyInAnyOrder(
                "INVALID_KEY", "KEY_MISMATCH", "INVALID_KEY", "MALFORMED_PAYLOAD", "UNKNOWN_FRAMING");
        ConsumerRecord<byte[], byte[]> cut = dead.stream()
                .filter(r -> "UNKNOWN_FRAMING".equals(DeadLetters.header(r.headers(), DeadLetters.REASON))).findFirst().orElseThrow();
        assertThat(DeadLetters.header(cut.headers(), DeadLetters.TRUNCATED)).isEqualTo("value");
        assertThat(DeadLetters.header(cut.headers(), DeadLetters.ORIGINAL_SIZE)).isEqualTo("1048388");
        assertThat(cut.value()).hasSizeLessThan(oversized.length).isEqualTo(java.util.Arrays.copyOf(oversized, cut.value().length));
    }

    private Map<UUID, Long> publishRandomHistories(int cases, Random random) {
        Map<UUID, Long> highest = new HashMap<>();
        List<SpecificRecord> events = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            UUID caseId = UUID.randomUUID();
            int last = random.nextInt(5);
            events.add(CaseEvents.created(caseId).build());
            for (int revision = 1; revision <= last; revision++) {
                events.add(CaseEvents.changed(caseId, revision).worker("w-" + revision).build());
            }
            highest.put(caseId, (long) last);
        }
        Collections.shuffle(events, random);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(topic, events);
        }
        return highest;
    }

    private static Map<TopicPartition, Long> committed(String group) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()))) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, Long> result = new HashMap<>();
            offsets.forEach((p, o) -> result.put(p, o.offset()));
            return result;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldRefuseToStartWhenTheFirstRecordsAreFramedForARegistryNoSettingNames() throws Exception {
        // Given events in the Confluent framing, and a replay with no schema registry configured
        try (RegistryStub registry = new RegistryStub();
             EventPublisher publisher = new EventPublisher(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString()))) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(UUID.randomUUID()).build()));
        }

        // When
        Cli.Run run = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID());

        // Then it says what is missing and has dead-lettered nothing
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("framed for a schema registry").contains("SCHEMA_REGISTRY_URL");
        assertThat(LiveApplier.endOffsets(deadLetters).values()).containsOnly(0L);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        return TopicRecords.readAll(topic);
    }
}
