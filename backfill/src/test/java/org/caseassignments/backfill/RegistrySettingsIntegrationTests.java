package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import picocli.CommandLine;

/**
 * The backfill takes its schema registry from the variable the projector and the compose file use,
 * {@code SCHEMA_REGISTRY_URL}: events framed for the registry are read, not dead-lettered; and it reads them through
 * the jobs' registry retry, so a record whose schema id the registry does not know (what the projector dead-letters
 * {@code UNKNOWN_SCHEMA}) is passed over and counted once the retry is over, and the job finishes around it.
 */
@RealDatabaseTest
class RegistrySettingsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final RegistryStub REGISTRY = RegistryStub.started();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // As the environment variable would be: application.yml reads ${SCHEMA_REGISTRY_URL}.
        registry.add("SCHEMA_REGISTRY_URL", () -> REGISTRY.url().toString());
        // A registry follower gets a second to catch up with an id before its record counts as unknown: the variable,
        // in the one duration syntax.
        registry.add("SCHEMA_REGISTRY_NOT_FOUND_WINDOW", () -> "1s");
    }

    @AfterAll
    static void stopRegistry() {
        REGISTRY.close();
    }

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();

    @Autowired
    KafkaProperties kafka;

    @Autowired
    SchemaRegistryProperties registrySettings;

    @Test
    void shouldReadTheNotFoundWindowFromItsVariableAsADuration() {
        assertThat(EventTopics.serdeSettings(kafka, registrySettings).registryNotFoundWindow()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldReplayEventsFramedForTheRegistryThatSchemaRegistryUrlNames() {
        // Given events in the Confluent framing, their schemas in the registry
        String topic = TestKafka.uniqueTopic("case.events");
        String deadLetters = TestKafka.uniqueTopic("case.events.dlq");
        TestKafka.createTopics(3, topic, deadLetters);
        UUID caseId = UUID.randomUUID();
        List<SpecificRecord> history = List.of(CaseEvents.created(caseId).worker("w-0").build(),
                CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build());
        try (EventPublisher publisher = new EventPublisher(Map.of(SerdeSettings.REGISTRY_URL, REGISTRY.url().toString()))) {
            publisher.publishInOrder(topic, history);
        }

        // When
        Cli.Run run = new Cli(commandLine).run("replay", "--topics", topic, "--dead-letter-topic", deadLetters,
                "--group", "replay-" + UUID.randomUUID());

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).containsPattern("dead-lettered to " + deadLetters + "\\s+0\\n");
        assertThat(jdbc.queryForObject("SELECT assignment_revision FROM case_assignments WHERE case_id = ?", Long.class,
                caseId)).isEqualTo(1L);
    }

    @Test
    void shouldPassOverARecordWithASchemaIdTheRegistryAnswers404ForInARebuildsDryRunAndSwap() {
        // Given good events framed for the registry on both sides of one whose schema id the registry never heard of,
        // and a live projection that agrees with the good ones
        String topic = TestKafka.uniqueTopic("case.events");
        TestKafka.createTopics(1, topic);
        UUID before = UUID.randomUUID();
        UUID after = UUID.randomUUID();
        int unknownId = REGISTRY.reserveId();
        try (EventPublisher publisher = new EventPublisher(Map.of(SerdeSettings.REGISTRY_URL, REGISTRY.url().toString()))) {
            publisher.publishInOrder(topic, history(before));
            publisher.publishRaw(topic, UUID.randomUUID().toString(), RegistryStub.confluentFramed(unknownId, new byte[] {2, 4}));
            publisher.publishInOrder(topic, history(after));
        }
        jdbc.execute("DROP TABLE IF EXISTS case_assignments_previous");
        jdbc.execute("TRUNCATE case_assignments");
        Rows.assignment(before).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        Rows.assignment(after).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        jdbc.update("UPDATE case_assignments SET jurisdiction = 'georgia'");

        // When
        Cli.Run dryRun = new Cli(commandLine).run("rebuild", "--topics", topic, "--progress", "none", "--dry-run");
        Cli.Run rebuild = new Cli(commandLine).run("rebuild", "--topics", topic, "--progress", "none");

        // Then both finish around it, count it, and the swapped-in table holds every good event
        assertThat(dryRun.exit()).as(dryRun.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(dryRun.out()).containsPattern("events read\\s+5\\n").containsPattern("cases rebuilt\\s+2\\n")
                .containsPattern("passed over \\(dead-lettered\\)\\s+1\\n")
                .containsPattern("of which an unknown schema id or record type\\s+1\\n");
        assertThat(rebuild.exit()).as(rebuild.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(rebuild.out()).contains("swapped in").containsPattern("of which an unknown schema id or record type\\s+1\\n");
        assertThat(jdbc.queryForList("SELECT case_id, assignment_revision FROM case_assignments"))
                .containsExactlyInAnyOrderElementsOf(List.of(
                        Map.of("case_id", before, "assignment_revision", 1L),
                        Map.of("case_id", after, "assignment_revision", 1L)));
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild') IS NULL", Boolean.class)).isTrue();
    }

    private static List<SpecificRecord> history(UUID caseId) {
        return List.of(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").jurisdiction("georgia").build(),
                CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").jurisdiction("georgia").build());
    }
}
