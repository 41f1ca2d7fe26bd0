package org.caseassignments.ingest;

import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.store.AssignmentUpdate;

/**
 * Decodes an input record and validates it into an {@link AssignmentUpdate}, dispatching on the
 * record's schema. Every permanent problem becomes a {@link Ingested.Rejected} with its reason;
 * a transient one (the schema registry is unreachable) is thrown, so the caller retries instead of
 * dead-lettering a good record.
 */
public final class CaseEventReader {

    private final AvroEventCodec codec;

    public CaseEventReader(AvroEventCodec codec) {
        this.codec = codec;
    }

    /**
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested read(byte[] value) {
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
            return rejected(e.failure().name(), e.getMessage());
        }
        if (record instanceof CaseCreated created) {
            return caseId(created.getCaseId())
                    .<Ingested>map(id -> new Ingested.Accepted(
                            AssignmentUpdate.created(id, created.getAssignedWorkerSub(), created.getSupervisorSub()),
                            created.getEventId()))
                    .orElseGet(() -> invalidCaseId(created.getCaseId()));
        }
        if (record instanceof CaseAssignmentChanged changed) {
            if (changed.getAssignmentRevision() < 0) {
                return rejected(Rejection.NEGATIVE_REVISION, "CaseAssignmentChanged " + changed.getEventId()
                        + " for case " + changed.getCaseId() + " has revision " + changed.getAssignmentRevision()
                        + "; revisions are >= 0");
            }
            return caseId(changed.getCaseId())
                    .<Ingested>map(id -> new Ingested.Accepted(
                            AssignmentUpdate.changed(id, changed.getAssignedWorkerSub(), changed.getSupervisorSub(),
                                    changed.getAssignmentRevision()),
                            changed.getEventId()))
                    .orElseGet(() -> invalidCaseId(changed.getCaseId()));
        }
        return rejected(Rejection.UNEXPECTED_RECORD_TYPE, record.getSchema().getFullName()
                + " is not an input event (expected CaseCreated or CaseAssignmentChanged)");
    }

    private static java.util.Optional<UUID> caseId(String value) {
        try {
            UUID id = UUID.fromString(value);
            // UUID.fromString accepts short forms such as "1-2-3-4-5"; only the canonical form is a case id.
            return id.toString().equalsIgnoreCase(value) ? java.util.Optional.of(id) : java.util.Optional.empty();
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }

    private static Ingested invalidCaseId(String value) {
        return rejected(Rejection.INVALID_CASE_ID, "case_id '" + value + "' is not a UUID");
    }

    private static Ingested rejected(String code, String message) {
        return new Ingested.Rejected(new Rejection(code, message));
    }
}
