package org.caseassignments.local;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.topics.CaseTopics;

/**
 * Publishes a realistic stream — creations and reassignments, some delivered out of order, some
 * twice — and shows the projection converge to the highest revision of every case.
 */
final class Demo {

    private static final int CASES = 12;
    private static final List<String> WORKERS = List.of("georgia-caseworker", "georgia-caseworker-2", "ada", "grace", "linus");

    private final PrintStream out;
    private final String bootstrapServers;
    private final LocalDatabase database;
    private final Random random = new Random();

    Demo(PrintStream out, String bootstrapServers, LocalDatabase database) {
        this.out = out;
        this.bootstrapServers = bootstrapServers;
        this.database = database;
    }

    void run() throws Exception {
        Map<UUID, CaseAssignmentChanged> latest = new HashMap<>();
        List<SpecificRecord> stream = new ArrayList<>();
        int duplicates = 0;
        int reordered = 0;
        for (int c = 0; c < CASES; c++) {
            UUID caseId = UUID.randomUUID();
            List<SpecificRecord> events = new ArrayList<>();
            events.add(CaseCreated.newBuilder().setEventId(UUID.randomUUID().toString()).setCaseId(caseId.toString())
                    .setAssignedWorkerSub(pick()).setSupervisorSub("georgia-supervisor").setOccurredAt(Instant.now())
                    .setJurisdiction(SampleCase.JURISDICTION).build());
            int changes = 2 + random.nextInt(4);
            for (long revision = 1; revision <= changes; revision++) {
                CaseAssignmentChanged change = CaseAssignmentChanged.newBuilder().setEventId(UUID.randomUUID().toString())
                        .setCaseId(caseId.toString()).setAssignedWorkerSub(pick()).setSupervisorSub("georgia-supervisor")
                        .setAssignmentRevision(revision).setOccurredAt(Instant.now()).build();
                events.add(change);
                latest.put(caseId, change);
            }
            if (random.nextBoolean()) {
                int i = 1 + random.nextInt(events.size() - 1);
                Collections.swap(events, i, i == events.size() - 1 ? i - 1 : i + 1);
                reordered++;
            }
            if (random.nextInt(3) == 0) {
                events.add(events.get(random.nextInt(events.size())));
                duplicates++;
            }
            stream.addAll(events);
        }
        out.printf("%n demo: publishing %d events for %d cases (%d cases with a swapped pair, %d redeliveries) …%n",
                stream.size(), CASES, reordered, duplicates);
        try (KafkaProducer<String, SpecificRecord> producer = SampleCase.producer(bootstrapServers)) {
            for (SpecificRecord event : stream) {
                String key = event instanceof CaseCreated c ? c.getCaseId() : ((CaseAssignmentChanged) event).getCaseId();
                producer.send(new ProducerRecord<>(CaseTopics.DEFAULT_EVENTS, key, event));
            }
            producer.flush();
        }
        awaitAndShow(latest);
    }

    private void awaitAndShow(Map<UUID, CaseAssignmentChanged> expected) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        Map<UUID, Object[]> seen = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             PreparedStatement query = connection.prepareStatement(
                     "SELECT assigned_worker_sub, assignment_revision FROM case_assignments WHERE case_id = ?")) {
            while (Instant.now().isBefore(deadline)) {
                seen.clear();
                for (UUID caseId : expected.keySet()) {
                    query.setObject(1, caseId);
                    try (ResultSet rs = query.executeQuery()) {
                        if (rs.next()) {
                            seen.put(caseId, new Object[] {rs.getString(1), rs.getLong(2)});
                        }
                    }
                }
                if (expected.entrySet().stream().allMatch(e -> converged(e.getValue(), seen.get(e.getKey())))) {
                    break;
                }
                TimeUnit.MILLISECONDS.sleep(250);
            }
        }
        out.println();
        out.println("   case      highest revision sent   projection revision   worker                  ");
        out.println("   ────────  ─────────────────────   ───────────────────   ─────────────────────── ");
        int ok = 0;
        for (var entry : expected.entrySet()) {
            Object[] row = seen.get(entry.getKey());
            boolean converged = converged(entry.getValue(), row);
            ok += converged ? 1 : 0;
            out.printf("   %s  %21d   %19s   %-22s %s%n", entry.getKey().toString().substring(0, 8),
                    entry.getValue().getAssignmentRevision(), row == null ? "-" : row[1], row == null ? "-" : row[0],
                    converged ? "✔" : "✘");
        }
        out.printf("%n demo: %d of %d cases converged to their highest revision; reordered and repeated deliveries changed nothing.%n%n",
                ok, expected.size());
    }

    private static boolean converged(CaseAssignmentChanged expected, Object[] row) {
        return row != null && (long) row[1] == expected.getAssignmentRevision()
                && java.util.Objects.equals(row[0], expected.getAssignedWorkerSub());
    }

    private String pick() {
        return WORKERS.get(random.nextInt(WORKERS.size()));
    }
}
