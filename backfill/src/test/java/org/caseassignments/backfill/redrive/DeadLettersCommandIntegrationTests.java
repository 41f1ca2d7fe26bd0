package org.caseassignments.backfill.redrive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.backfill.TopicRecords;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import picocli.CommandLine;

@RealDatabaseTest
class DeadLettersCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final RegistryStub REGISTRY = RegistryStub.started();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("SCHEMA_REGISTRY_URL", () -> REGISTRY.url().toString());
    }

    @AfterAll
    static void stopRegistry() {
        REGISTRY.close();
    }

    @Autowired
    CommandLine commandLine;

    final String topic = TestKafka.uniqueTopic("case.events");
    final String deadLetters = TestKafka.uniqueTopic("case.events.dlq");
    Cli cli;

    @BeforeEach
    void topics() {
        cli = new Cli(commandLine);
        TestKafka.createTopics(2, topic, deadLetters);
    }

    @Test
    void shouldPrintEachLetterDecodedWithItsReasonProvenanceAndTraceAndCommitNoOffsets() throws Exception {
        // Given the letter of an event that carried a trace, and the letter of a record that is no event
        UUID caseId = UUID.randomUUID();
        ConsumerRecord<byte[], byte[]> event = publish(caseId, "w-traced",
                Map.of("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"));
        deadLetter(event, "DATABASE_INTEGRITY_VIOLATION");
        String notAnEvent = UUID.randomUUID().toString();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, notAnEvent, "not an event".getBytes(StandardCharsets.UTF_8));
        }
        deadLetter(recordOf(notAnEvent), "UNKNOWN_FRAMING");
        Map<TopicPartition, Long> held = LiveApplier.endOffsets(deadLetters);

        // When
        Cli.Run run = cli.run("dead-letters", "--dead-letter-topic", deadLetters);

        // Then both are printed: the event as JSON with its key, reason, source and trace; the other as undecodable
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).contains("key:     " + caseId)
                .contains("reason:  DATABASE_INTEGRITY_VIOLATION: refused")
                .contains("source:  " + topic + "-" + event.partition() + "@" + event.offset())
                .contains("trace:   " + TRACE_ID)
                .containsPattern("event:   \\{.*\"" + caseId + "\".*\"w-traced\".*}")
                .contains("key:     " + notAnEvent)
                .contains("undecodable: UNKNOWN_FRAMING")
                .contains("2 read, 2 selected, 2 printed");
        assertThat(LiveApplier.endOffsets(deadLetters)).as("nothing written to the dead-letter topic").isEqualTo(held);
        assertThat(groupsWithOffsetsOf(deadLetters)).as("no group committed offsets of the dead letters").isEmpty();
    }

    @Test
    void shouldPrintOnlyTheLettersItsFiltersSelectUpToMaxAndSaySoWhenMoreWereSelected() {
        // Given three letters of events, two for a reason and one for another
        List<UUID> cases = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        deadLetter(publish(cases.get(0), "w-0", Map.of()), "DATABASE_INTEGRITY_VIOLATION");
        deadLetter(publish(cases.get(1), "w-1", Map.of()), "DATABASE_INTEGRITY_VIOLATION");
        deadLetter(publish(cases.get(2), "w-2", Map.of()), "UNKNOWN_SCHEMA");

        // When one reason is selected, at most one printed; then the other reason
        Cli.Run capped = cli.run("dead-letters", "--dead-letter-topic", deadLetters, "--reason",
                "DATABASE_INTEGRITY_VIOLATION", "--max", "1");
        Cli.Run other = cli.run("dead-letters", "--dead-letter-topic", deadLetters, "--reason", "UNKNOWN_SCHEMA");

        // Then
        assertThat(capped.exit()).as(capped.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(capped.out()).contains("3 read, 2 selected, 1 printed").doesNotContain(cases.get(2).toString());
        assertThat(capped.out().split("reason:  ", -1)).hasSize(2);
        assertThat(other.exit()).as(other.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(other.out()).contains("key:     " + cases.get(2)).contains("3 read, 1 selected, 1 printed")
                .doesNotContain(cases.get(0).toString()).doesNotContain(cases.get(1).toString());
    }

    @Test
    void shouldPrintALetterWhoseSchemaIdTheRegistryDoesNotKnowAsUndecodableAndGoOn() {
        // Given the letter of a record framed for a schema id the registry answers 404 for, then a letter of an event
        int unknownId = REGISTRY.reserveId();
        String framedForNothing = UUID.randomUUID().toString();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, framedForNothing, RegistryStub.confluentFramed(unknownId, new byte[] {2, 4, 6}));
        }
        deadLetter(recordOf(framedForNothing), "UNKNOWN_SCHEMA");
        UUID caseId = UUID.randomUUID();
        deadLetter(publish(caseId, "w-after", Map.of()), "DATABASE_INTEGRITY_VIOLATION");

        // When
        Cli.Run run = cli.run("dead-letters", "--dead-letter-topic", deadLetters);

        // Then the first is undecodable, not a registry that did not answer, and the second is printed too
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).contains("undecodable: registry has no schema id " + unknownId)
                .containsPattern("event:   \\{.*\"w-after\".*}")
                .contains("2 read, 2 selected, 2 printed");
    }

    @Test
    void shouldEscapeControlAndBidiCharactersAndCapEachFieldSoALetterCannotDriveTheTerminal() {
        // Given a letter whose key clears the screen, reverses the text and runs on for 5,000 characters
        String hostile = "case\u001b[2J\u202e\u0085\u007f\u009b" + "x".repeat(5_000);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(topic, hostile, "not an event".getBytes(StandardCharsets.UTF_8));
        }
        deadLetter(recordOf(hostile), "UNKNOWN_FRAMING");

        // When
        Cli.Run run = cli.run("dead-letters", "--dead-letter-topic", deadLetters);

        // Then every control character is printed as its escape, and the key is cut with what is left said
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).contains("key:     case\\u001B[2J\\u202E\\u0085\\u007F\\u009B")
                .containsPattern("x… [0-9,]+ bytes more\\n")
                .doesNotContain("\u001b").doesNotContain("\u202e").doesNotContain("\u0085").doesNotContain("\u009b")
                .doesNotContain("x".repeat(2_100));
    }

    @Test
    void shouldExit64OnBadUsageInEverySubcommand() {
        // When an option that does not exist, and a value that does not parse
        Cli.Run unknown = cli.run("dead-letters", "--no-such-option");
        Cli.Run unparsable = cli.run("redrive", "--from-offset", "soon");
        Cli.Run none = cli.run();

        // Then each is a usage error, not a failure
        assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(unparsable.exit()).as(unparsable.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.exit()).as(none.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("dead-letters", "--help").out()).contains("64 bad usage").contains("69 the database");
    }

    private ConsumerRecord<byte[], byte[]> publish(UUID caseId, String worker, Map<String, String> headers) {
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(topic, CaseEvents.created(caseId).worker(worker).build(), headers);
        }
        return recordOf(caseId.toString());
    }

    private ConsumerRecord<byte[], byte[]> recordOf(String key) {
        return TopicRecords.readAll(topic).stream()
                .filter(r -> key.equals(new String(r.key(), StandardCharsets.UTF_8))).findFirst().orElseThrow();
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, String reason) {
        DeadLetters.Letter letter = DeadLetters.letter(SourceRecord.of(record),
                new Rejection(reason, "refused"), 1_000_000);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishRaw(deadLetters, new String(record.key(), StandardCharsets.UTF_8), letter.value(),
                    letter.headers());
        }
    }

    private static List<String> groupsWithOffsetsOf(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()))) {
            List<String> groups = admin.listConsumerGroups().all().get().stream().map(ConsumerGroupListing::groupId).toList();
            return groups.stream().filter(group -> {
                try {
                    return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().keySet().stream()
                            .anyMatch(p -> p.topic().equals(topic));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }
}
