package org.caseassignments.backfill.redrive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.backfill.TopicRecords;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

@RealDatabaseTest
class RedriveCommandIntegrationTests {

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
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options");
    }

    @Test
    void shouldApplyTheDeadLettersThatNowGoThroughReportThoseThatStillFailAndSendNothingBack() {
        // Given dead letters of a replay: two events a constraint refused (since relaxed), and a record that is no event
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        deadLetterThroughAConstraintSinceRelaxed(first, second);
        Map<TopicPartition, Long> held = LiveApplier.endOffsets(deadLetters);

        // When a dry run, then a run that applies
        Cli.Run dryRun = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--progress", "none");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Integer.class)).isZero();
        Cli.Run run = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply", "--progress",
                "none");

        // Then the dry run said what the run did: the refused events applied through the guard, the other still fails
        assertThat(dryRun.exit()).as(dryRun.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(dryRun.out()).contains("dry run").containsPattern("dead letters selected\\s+3\\n")
                .containsPattern("applied \\(moved a row\\)\\s+2\\n").containsPattern("still failing\\s+1\\n");
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("applied \\(moved a row\\)\\s+2\\n").containsPattern("still failing\\s+1\\n")
                .contains("UNKNOWN_FRAMING");
        assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class,
                first)).isEqualTo("poison");
        assertThat(LiveApplier.endOffsets(deadLetters)).as("nothing re-sent to the dead-letter topic").isEqualTo(held);
    }

    @Test
    void shouldReportTheLetterATriggerStillRefusesOnEveryAttemptAndApplyTheOthers() {
        // Given dead letters of two events a constraint refused (since relaxed), and a trigger that now refuses the
        // second one's worker (P0001)
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        jdbc.execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub NOT LIKE 'held-%')");
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(first).worker("held-ok").build(),
                    CaseEvents.created(second).worker("held-refused").build()));
        }
        Cli.Run replay = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID());
        assertThat(replay.out()).as(replay.toString()).containsPattern("dead-lettered to " + deadLetters + "\\s+2\\n");
        jdbc.execute("ALTER TABLE case_assignments DROP CONSTRAINT test_reject");
        try (RefusingTrigger trigger = RefusingTrigger.refusing(jdbc, "held-refused")) {
            // When a dry run, then a run that applies
            Cli.Run dryRun = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--progress", "none");
            Cli.Run run = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply",
                    "--progress", "none");

            // Then both finish, reporting the refused letter with the trigger's SQLSTATE class, the other applied
            for (Cli.Run each : List.of(dryRun, run)) {
                assertThat(each.exit()).as(each.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
                assertThat(each.out()).as(each.toString()).containsPattern("dead letters selected\\s+2\\n")
                        .containsPattern("applied \\(moved a row\\)\\s+1\\n").containsPattern("still failing\\s+1\\n")
                        .contains("DATABASE_ROW_REFUSED");
            }
            assertThat(jdbc.queryForList("SELECT case_id FROM case_assignments", UUID.class)).containsExactly(first);
        }
    }

    @Test
    void shouldTakeDryRunAsTheDefaultItIsAndRefuseItBesideApply() {
        // Given dead letters of two events a constraint refused (since relaxed)
        deadLetterThroughAConstraintSinceRelaxed(UUID.randomUUID(), UUID.randomUUID());

        // When a run says --dry-run, and one says both --dry-run and --apply
        Cli.Run dryRun = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--dry-run",
                "--progress", "none");
        Cli.Run both = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--dry-run", "--apply",
                "--progress", "none");

        // Then the first is the dry run, the second a usage error; neither wrote anything
        assertThat(dryRun.exit()).as(dryRun.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(dryRun.out()).contains("dry run").containsPattern("applied \\(moved a row\\)\\s+2\\n");
        assertThat(both.exit()).as(both.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("--dry-run").contains("--apply");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Integer.class)).isZero();
    }

    @Test
    void shouldRedriveOnlyTheDeadLettersItsFiltersSelect() {
        // Given two events a constraint refused (since relaxed), and a record that is no event
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        deadLetterThroughAConstraintSinceRelaxed(first, second);
        ConsumerRecord<byte[], byte[]> letter = letterOf(first);
        String partition = DeadLetters.header(letter.headers(), DeadLetters.SOURCE_PARTITION);
        long offset = Long.parseLong(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET));

        // When
        Cli.Run run = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply", "--progress",
                "none", "--reason", "DATABASE_INTEGRITY_VIOLATION", "--source-partition", partition,
                "--from-offset", Long.toString(offset), "--to-offset", Long.toString(offset + 1));

        // Then only that one was applied, and nothing selected still fails
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).containsPattern("dead letters selected\\s+1\\n");
        assertThat(jdbc.queryForList("SELECT case_id FROM case_assignments", UUID.class)).containsExactly(first);
    }

    @Test
    void shouldRefuseToStartWhenTheDeadLettersAreFramedForARegistryNoSettingNames() throws Exception {
        // Given dead letters of events framed for a schema registry (dead-lettered while it was down), and a redrive
        // with no registry configured
        UUID caseId = UUID.randomUUID();
        try (RegistryStub registry = new RegistryStub();
             EventPublisher publisher = new EventPublisher(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString()))) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(caseId).worker("w-0").build(),
                    CaseEvents.changed(caseId, 1).worker("w-1").build()));
        }
        try (EventPublisher publisher = new EventPublisher()) {
            for (ConsumerRecord<byte[], byte[]> event : TopicRecords.readAll(topic)) {
                DeadLetters.Letter letter = DeadLetters.letter(SourceRecord.of(event),
                        new Rejection("REGISTRY_UNAVAILABLE", "the registry did not answer"), 1_000_000);
                publisher.publishRaw(deadLetters, new String(letter.key(), StandardCharsets.UTF_8), letter.value(),
                        letter.headers());
            }
        }
        Map<TopicPartition, Long> held = LiveApplier.endOffsets(deadLetters);

        // When
        Cli.Run run = cli.run("redrive", "--dead-letter-topic", deadLetters, "--apply", "--progress", "none");

        // Then it refuses, naming the setting, instead of reporting every letter as still failing
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("backfill redrive: refused").contains("framed for a schema registry")
                .contains("SCHEMA_REGISTRY_URL");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments", Integer.class)).isZero();
        assertThat(LiveApplier.endOffsets(deadLetters)).as("nothing re-sent to the dead-letter topic").isEqualTo(held);
    }

    @Test
    void shouldSkipAndReportTheLettersOfRecordsFromAnotherTopicAndApplyNoneOfThem() {
        // Given the letters of a replay of the input topic, and a letter of a valid event that says it came from
        // another topic (of another system, or written by hand)
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        deadLetterThroughAConstraintSinceRelaxed(first, second);
        UUID foreign = UUID.randomUUID();
        String otherTopic = TestKafka.uniqueTopic("other.events");
        TestKafka.createTopics(1, otherTopic);
        deadLetterOfAValidEvent(foreign, otherTopic, headers -> { });

        // When
        Cli.Run run = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply",
                "--progress", "none");

        // Then the input topic's letters are re-driven; the other one is counted, named and never applied
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("dead letters read\\s+4\\n").containsPattern("dead letters selected\\s+3\\n")
                .containsPattern("applied \\(moved a row\\)\\s+2\\n")
                .containsPattern("skipped, not from the input topics \\(" + topic + "\\)\\s+1\\n")
                .contains(otherTopic + "-0@0 NOT_FROM_INPUT_TOPICS");
        assertThat(jdbc.queryForList("SELECT case_id FROM case_assignments", UUID.class))
                .containsExactlyInAnyOrder(first, second);
    }

    @Test
    void shouldCountAndSkipLettersWithMalformedProvenanceWithoutStoppingAFilteredOrAnUnfilteredRun() {
        // Given the letters of a replay, and letters of valid events whose provenance headers are missing or garbage
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        deadLetterThroughAConstraintSinceRelaxed(first, second);
        List<UUID> malformed = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                UUID.randomUUID());
        deadLetterOfAValidEvent(malformed.get(0), topic, headers -> replace(headers, DeadLetters.SOURCE_OFFSET, "x1"));
        deadLetterOfAValidEvent(malformed.get(1), topic, headers -> headers.remove(DeadLetters.SOURCE_OFFSET));
        deadLetterOfAValidEvent(malformed.get(2), topic, headers -> replace(headers, DeadLetters.SOURCE_PARTITION, "-"));
        deadLetterOfAValidEvent(malformed.get(3), topic, headers -> headers.remove(DeadLetters.SOURCE_PARTITION));
        deadLetterOfAValidEvent(malformed.get(4), topic, headers -> headers.remove(DeadLetters.SOURCE_TOPIC));
        ConsumerRecord<byte[], byte[]> letter = letterOf(first);
        String partition = DeadLetters.header(letter.headers(), DeadLetters.SOURCE_PARTITION);
        long offset = Long.parseLong(DeadLetters.header(letter.headers(), DeadLetters.SOURCE_OFFSET));

        // When a run filtered by source offsets, then one that is not
        Cli.Run filtered = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply",
                "--progress", "none", "--source-partition", partition, "--from-offset", Long.toString(offset),
                "--to-offset", Long.toString(offset + 1));
        Cli.Run unfiltered = cli.run("redrive", "--dead-letter-topic", deadLetters, "--topics", topic, "--apply",
                "--progress", "none");

        // Then both read every letter, skipped the five, and applied none of them
        for (Cli.Run run : List.of(filtered, unfiltered)) {
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(run.out()).as(run.toString()).containsPattern("dead letters read\\s+8\\n")
                    .containsPattern("skipped, malformed dlq.source headers\\s+5\\n");
        }
        assertThat(filtered.out()).containsPattern("dead letters selected\\s+1\\n");
        assertThat(unfiltered.out()).containsPattern("dead letters selected\\s+3\\n");
        assertThat(jdbc.queryForList("SELECT case_id FROM case_assignments", UUID.class))
                .containsExactlyInAnyOrder(first, second);
    }

    /** A letter of a valid {@code case.created} read back from {@code sourceTopic}, its headers changed by {@code malform}. */
    private void deadLetterOfAValidEvent(UUID caseId, String sourceTopic, java.util.function.Consumer<Headers> malform) {
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(sourceTopic, List.of(CaseEvents.created(caseId).worker("w-0").build()));
            ConsumerRecord<byte[], byte[]> event = TopicRecords.readAll(sourceTopic).stream()
                    .filter(r -> caseId.toString().equals(new String(r.key(), StandardCharsets.UTF_8)))
                    .findFirst().orElseThrow();
            DeadLetters.Letter letter = DeadLetters.letter(SourceRecord.of(event),
                    new Rejection("REGISTRY_UNAVAILABLE", "the registry did not answer"), 1_000_000);
            malform.accept(letter.headers());
            publisher.publishRaw(deadLetters, caseId.toString(), letter.value(), letter.headers());
        }
    }

    private static void replace(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private ConsumerRecord<byte[], byte[]> letterOf(UUID caseId) {
        return TopicRecords.readAll(deadLetters).stream()
                .filter(r -> r.key() != null && caseId.toString().equals(new String(r.key(), StandardCharsets.UTF_8)))
                .findFirst().orElseThrow();
    }

    private void deadLetterThroughAConstraintSinceRelaxed(UUID first, UUID second) {
        jdbc.execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(first).worker("poison").build(),
                    CaseEvents.created(second).worker("poison").build()));
            publisher.publishRaw(topic, UUID.randomUUID().toString(), "not an event".getBytes(StandardCharsets.UTF_8));
        }
        Cli.Run replay = cli.run("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID());
        assertThat(replay.out()).as(replay.toString()).containsPattern("dead-lettered to " + deadLetters + "\\s+3\\n");
        jdbc.execute("ALTER TABLE case_assignments DROP CONSTRAINT test_reject");
    }
}
