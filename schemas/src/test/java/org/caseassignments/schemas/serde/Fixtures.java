package org.caseassignments.schemas.serde;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.UUID;

import org.apache.avro.Schema;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;

final class Fixtures {

    static final Instant OCCURRED_AT = Instant.parse("2026-03-01T10:15:30.123Z");

    private Fixtures() {
    }

    static CaseCreated created() {
        return CaseCreated.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                .setCaseId(UUID.randomUUID().toString())
                .setAssignedWorkerSub("worker-7")
                .setSupervisorSub("supervisor-2")
                .setOccurredAt(OCCURRED_AT)
                .build();
    }

    static CaseAssignmentChanged changed() {
        return CaseAssignmentChanged.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                .setCaseId(UUID.randomUUID().toString())
                .setAssignedWorkerSub(null)
                .setSupervisorSub("supervisor-3")
                .setAssignmentRevision(42L)
                .setOccurredAt(OCCURRED_AT)
                .build();
    }

    static CaseAssignment assignment() {
        return CaseAssignment.newBuilder()
                .setCaseId(UUID.randomUUID().toString())
                .setAssignedWorkerSub("worker-1")
                .setSupervisorSub(null)
                .setAssignmentRevision(3L)
                .build();
    }

    static Schema historicSchema(String file) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/avro-history/" + file)) {
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
