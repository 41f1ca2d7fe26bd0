package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import picocli.CommandLine;

/**
 * The backfill takes its schema registry from the variable the projector and the compose file use,
 * {@code SCHEMA_REGISTRY_URL}: events framed for the registry are read, not dead-lettered.
 */
@RealDatabaseTest
class RegistrySettingsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final RegistryStub REGISTRY = RegistryStub.started();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // As the environment variable would be: application.yml reads ${SCHEMA_REGISTRY_URL}.
        registry.add("SCHEMA_REGISTRY_URL", () -> REGISTRY.url().toString());
    }

    @AfterAll
    static void stopRegistry() {
        REGISTRY.close();
    }

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();

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
}
