package org.caseassignments.ingest;

import java.time.Instant;
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
                return accepted("CaseCreated", created.getEventId(), created.getCaseId(), created.getAssignedWorkerSub(),
                        created.getSupervisorSub(), 0, created.getOccurredAt());
            }
            if (record instanceof CaseAssignmentChanged changed) {
                return accepted("CaseAssignmentChanged", changed.getEventId(), changed.getCaseId(),
                        changed.getAssignedWorkerSub(), changed.getSupervisorSub(), changed.getAssignmentRevision(),
                        changed.getOccurredAt());
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
                return accepted("CaseAssignment", null, assignment.getCaseId(), assignment.getAssignedWorkerSub(),
                        assignment.getSupervisorSub(), assignment.getAssignmentRevision(), null);
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

    /**
     * A valid event as an update under the strictly-newer guard (a creation is revision 0), or its
     * rejection. Called for every event: nothing is built for the rejection unless there is one.
     */
    private static Ingested accepted(String type, String eventId, String caseId, String worker, String supervisor,
                                     long revision, Instant occurredAt) {
        if (revision < 0) {
            return rejected(Rejection.NEGATIVE_REVISION, describe(type, eventId) + " for case " + caseId
                    + " has revision " + revision + "; revisions are >= 0");
        }
        UUID id = caseId(caseId);
        if (id == null) {
            return rejected(Rejection.INVALID_CASE_ID, describe(type, eventId) + ": case_id '" + caseId + "' is not a UUID");
        }
        return new Ingested.Accepted(AssignmentUpdate.changed(id, worker, supervisor, revision), eventId, occurredAt);
    }

    private static String describe(String type, String eventId) {
        return eventId == null ? type : type + " " + eventId;
    }

    private static Ingested unexpected(SpecificRecord record, String expected) {
        return rejected(Rejection.UNEXPECTED_RECORD_TYPE, record.getSchema().getFullName() + " is not " + expected);
    }

    /**
     * The case id if {@code value} is a UUID in canonical form (36 characters: hex digits of either case,
     * hyphens at 8, 13, 18 and 23), else null; parsed in the same pass. ({@link UUID#fromString} also
     * takes short forms such as {@code 1-2-3-4-5}, and signs or non-ASCII digits in its fallback parser.)
     */
    static UUID caseId(String value) {
        if (value == null || value.length() != 36) {
            return null;
        }
        long high = 0;
        long low = 0;
        int digits = 0;
        for (int i = 0; i < 36; i++) {
            char c = value.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int digit = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                    : -1;
            if (digit < 0) {
                return null;
            }
            if (digits++ < 16) {
                high = high << 4 | digit;
            } else {
                low = low << 4 | digit;
            }
        }
        return new UUID(high, low);
    }

    private static Ingested rejected(String code, String message) {
        return new Ingested.Rejected(new Rejection(code, message));
    }
}
