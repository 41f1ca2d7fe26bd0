package org.caseassignments.local;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.serde.CaseEventSerializer;
import org.caseassignments.schemas.topics.CaseTopics;

/**
 * A Georgia case assigned to {@code georgia-caseworker}, published as the upstream case service
 * would, so the printed examples have a case to work on.
 */
final class SampleCase {

    static final UUID CASE_ID = UUID.fromString("c0ffee00-0000-4000-8000-000000000001");
    static final String JURISDICTION = "georgia";
    static final String WORKER = LocalTokens.subject(JURISDICTION, "caseworker");
    static final String SUPERVISOR = LocalTokens.subject(JURISDICTION, "supervisor");

    private SampleCase() {
    }

    static void publish(String bootstrapServers, LocalDatabase database) throws Exception {
        try (KafkaProducer<String, SpecificRecord> producer = producer(bootstrapServers)) {
            producer.send(new ProducerRecord<>(CaseTopics.DEFAULT_EVENTS, CASE_ID.toString(), CaseCreated.newBuilder()
                    .setEventId(UUID.randomUUID().toString())
                    .setCaseId(CASE_ID.toString())
                    .setAssignedWorkerSub(WORKER)
                    .setSupervisorSub(SUPERVISOR)
                    .setOccurredAt(Instant.now())
                    .setJurisdiction(JURISDICTION)
                    .build())).get(30, TimeUnit.SECONDS);
        }
        awaitProjected(database, Duration.ofSeconds(60));
    }

    static KafkaProducer<String, SpecificRecord> producer(String bootstrapServers) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new CaseEventSerializer());
    }

    private static void awaitProjected(LocalDatabase database, Duration timeout) throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             PreparedStatement query = connection.prepareStatement(
                     "SELECT 1 FROM case_assignments WHERE case_id = ? AND assignment_revision >= 0")) {
            query.setObject(1, CASE_ID);
            while (Instant.now().isBefore(deadline)) {
                try (ResultSet rs = query.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
        throw new IllegalStateException("The projector did not project the sample case " + CASE_ID + " within "
                + timeout.toSeconds() + " s; see the projector log in the data folder");
    }
}
