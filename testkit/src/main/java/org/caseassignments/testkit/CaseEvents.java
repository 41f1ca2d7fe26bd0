package org.caseassignments.testkit;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;

/** Builders for case events with sensible defaults: {@code CaseEvents.changed(caseId, 3).worker("w-1").build()}. */
public final class CaseEvents {

    private CaseEvents() {
    }

    public static CreatedBuilder created(UUID caseId) {
        return new CreatedBuilder(caseId);
    }

    public static ChangedBuilder changed(UUID caseId, long revision) {
        return new ChangedBuilder(caseId, revision);
    }

    /** The record key of an event: its case id. */
    public static String caseIdOf(SpecificRecord event) {
        if (event instanceof CaseCreated c) {
            return c.getCaseId();
        }
        if (event instanceof CaseAssignmentChanged c) {
            return c.getCaseId();
        }
        if (event instanceof CaseAssignment c) {
            return c.getCaseId();
        }
        throw new IllegalArgumentException("Not a case event: " + event.getClass());
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    public static final class CreatedBuilder {
        private final UUID caseId;
        private String worker = "worker-1";
        private String supervisor = "supervisor-1";
        private UUID eventId = UUID.randomUUID();
        private String jurisdiction;

        private CreatedBuilder(UUID caseId) {
            this.caseId = caseId;
        }

        public CreatedBuilder worker(String worker) {
            this.worker = worker;
            return this;
        }

        public CreatedBuilder supervisor(String supervisor) {
            this.supervisor = supervisor;
            return this;
        }

        public CreatedBuilder eventId(UUID eventId) {
            this.eventId = eventId;
            return this;
        }

        /** The case's jurisdiction; none by default, as from a producer that predates the field. */
        public CreatedBuilder jurisdiction(String jurisdiction) {
            this.jurisdiction = jurisdiction;
            return this;
        }

        public CaseCreated build() {
            return CaseCreated.newBuilder()
                    .setEventId(eventId.toString())
                    .setCaseId(caseId.toString())
                    .setAssignedWorkerSub(worker)
                    .setSupervisorSub(supervisor)
                    .setOccurredAt(now())
                    .setJurisdiction(jurisdiction)
                    .build();
        }
    }

    public static final class ChangedBuilder {
        private final UUID caseId;
        private final long revision;
        private String worker = "worker-1";
        private String supervisor = "supervisor-1";
        private UUID eventId = UUID.randomUUID();
        private String jurisdiction;

        private ChangedBuilder(UUID caseId, long revision) {
            this.caseId = caseId;
            this.revision = revision;
        }

        public ChangedBuilder worker(String worker) {
            this.worker = worker;
            return this;
        }

        public ChangedBuilder supervisor(String supervisor) {
            this.supervisor = supervisor;
            return this;
        }

        public ChangedBuilder eventId(UUID eventId) {
            this.eventId = eventId;
            return this;
        }

        /** The case's jurisdiction; none by default, as from a producer that predates the field. */
        public ChangedBuilder jurisdiction(String jurisdiction) {
            this.jurisdiction = jurisdiction;
            return this;
        }

        public CaseAssignmentChanged build() {
            return CaseAssignmentChanged.newBuilder()
                    .setEventId(eventId.toString())
                    .setCaseId(caseId.toString())
                    .setAssignedWorkerSub(worker)
                    .setSupervisorSub(supervisor)
                    .setAssignmentRevision(revision)
                    .setOccurredAt(now())
                    .setJurisdiction(jurisdiction)
                    .build();
        }
    }
}
