package org.caseassignments.ingest;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.store.AssignmentUpdate;

/**
 * Decodes a record and validates it into an {@link AssignmentUpdate}, dispatching on the record's
 * schema. Every permanent problem becomes a {@link Ingested.Rejected} with its reason; a transient
 * one (the schema registry is unreachable) is thrown, so the caller retries instead of
 * dead-lettering a good record.
 */
public final class CaseEventReader {

    private final AvroEventCodec codec;

    public CaseEventReader(AvroEventCodec codec) {
        this.codec = codec;
    }

    /**
     * Reads an input event: {@code CaseCreated} or {@code CaseAssignmentChanged}.
     *
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested read(byte[] value) {
        return decode(value, record -> {
            if (record instanceof CaseCreated created) {
                return accepted("CaseCreated " + created.getEventId(), created.getCaseId(), 0, created.getEventId(),
                        id -> AssignmentUpdate.created(id, created.getAssignedWorkerSub(), created.getSupervisorSub()));
            }
            if (record instanceof CaseAssignmentChanged changed) {
                return accepted("CaseAssignmentChanged " + changed.getEventId(), changed.getCaseId(),
                        changed.getAssignmentRevision(), changed.getEventId(),
                        id -> AssignmentUpdate.changed(id, changed.getAssignedWorkerSub(), changed.getSupervisorSub(),
                                changed.getAssignmentRevision()));
            }
            return unexpected(record, "an input event (expected CaseCreated or CaseAssignmentChanged)");
        });
    }

    /**
     * Reads a record of the projection's own topic ({@code case.assignments}): a {@code CaseAssignment},
     * applied under the same strictly-newer guard as the event it came from (revision 0 is a creation).
     * The accepted update has no event id.
     *
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested readAssignment(byte[] value) {
        return decode(value, record -> {
            if (record instanceof CaseAssignment assignment) {
                return accepted("CaseAssignment", assignment.getCaseId(), assignment.getAssignmentRevision(), null,
                        id -> AssignmentUpdate.changed(id, assignment.getAssignedWorkerSub(),
                                assignment.getSupervisorSub(), assignment.getAssignmentRevision()));
            }
            return unexpected(record, "a CaseAssignment");
        });
    }

    private Ingested decode(byte[] value, Function<SpecificRecord, Ingested> validate) {
        if (value == null) {
            return rejected(Rejection.NULL_VALUE, "record has no value (a tombstone is not a case event)");
        }
        SpecificRecord record;
        try {
            record = codec.decode(value);
        } catch (EventDecodingException e) {
            if (e.failure().isTransient()) {
                throw e;
            }
            // The exception's message starts with the failure's name, which the rejection carries as its code.
            String message = e.getMessage().startsWith(e.failure().name() + ": ")
                    ? e.getMessage().substring(e.failure().name().length() + 2) : e.getMessage();
            return rejected(e.failure().name(), message);
        }
        return validate.apply(record);
    }

    private static Ingested accepted(String what, String caseId, long revision, String eventId,
                                     Function<UUID, AssignmentUpdate> update) {
        if (revision < 0) {
            return rejected(Rejection.NEGATIVE_REVISION, what + " for case " + caseId + " has revision " + revision
                    + "; revisions are >= 0");
        }
        return caseId(caseId)
                .<Ingested>map(id -> new Ingested.Accepted(update.apply(id), eventId))
                .orElseGet(() -> rejected(Rejection.INVALID_CASE_ID, what + ": case_id '" + caseId + "' is not a UUID"));
    }

    private static Ingested unexpected(SpecificRecord record, String expected) {
        return rejected(Rejection.UNEXPECTED_RECORD_TYPE, record.getSchema().getFullName() + " is not " + expected);
    }

    private static Optional<UUID> caseId(String value) {
        try {
            UUID id = UUID.fromString(value);
            // UUID.fromString accepts short forms such as "1-2-3-4-5"; only the canonical form is a case id.
            return id.toString().equalsIgnoreCase(value) ? Optional.of(id) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Ingested rejected(String code, String message) {
        return new Ingested.Rejected(new Rejection(code, message));
    }
}
