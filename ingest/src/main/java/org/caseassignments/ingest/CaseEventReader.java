package org.caseassignments.ingest;

import java.time.Instant;
import java.util.UUID;
import java.util.function.Function;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.jurisdiction.Jurisdictions;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.CaseIds;
import org.caseassignments.store.StorableText;
import org.caseassignments.store.StorableTime;

/**
 * Decodes a record and validates it into an {@link AssignmentUpdate}, dispatching on the record's
 * schema, and checks the record key against it. Every permanent problem becomes a
 * {@link Ingested.Rejected} with its reason; a transient one (the schema registry is unreachable) is
 * thrown, so the caller retries instead of dead-lettering a good record.
 */
public final class CaseEventReader {

    private final AvroEventCodec codec;

    public CaseEventReader(AvroEventCodec codec) {
        this.codec = codec;
    }

    /**
     * Reads an input event: {@code CaseCreated} or {@code CaseAssignmentChanged}, keyed by its case id.
     *
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested read(byte[] key, byte[] value) {
        return keyed(key, decode(value, record -> {
            if (record instanceof CaseCreated created) {
                return accepted("CaseCreated", created.getEventId(), created.getCaseId(), created.getAssignedWorkerSub(),
                        created.getSupervisorSub(), 0, created.getJurisdiction(), created.getOccurredAt());
            }
            if (record instanceof CaseAssignmentChanged changed) {
                return accepted("CaseAssignmentChanged", changed.getEventId(), changed.getCaseId(),
                        changed.getAssignedWorkerSub(), changed.getSupervisorSub(), changed.getAssignmentRevision(),
                        changed.getJurisdiction(), changed.getOccurredAt());
            }
            return unexpected(record, "an input event (expected CaseCreated or CaseAssignmentChanged)");
        }));
    }

    /**
     * As {@link #read(byte[], byte[])}, for a record with headers: an accepted event carries the trace id of its
     * valid W3C {@code traceparent} header ({@link TraceParent}), stored with the assignment it sets; a header that is
     * not one is ignored.
     *
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested read(byte[] key, byte[] value, Headers headers) {
        Ingested read = read(key, value);
        String traceId = read instanceof Ingested.Accepted ? TraceParent.traceId(headers) : null;
        return traceId == null ? read : ((Ingested.Accepted) read).withTraceId(traceId);
    }

    /**
     * Reads a record of the projection's own topic ({@code case.assignments}): a {@code CaseAssignment},
     * keyed by its case id, applied under the same strictly-newer guard as the event it came from
     * (revision 0 is a creation). The accepted update has no event id.
     *
     * @throws EventDecodingException only for a transient failure ({@code failure().isTransient()})
     */
    public Ingested readAssignment(byte[] key, byte[] value) {
        return keyed(key, decode(value, record -> {
            if (record instanceof CaseAssignment assignment) {
                return accepted("CaseAssignment", null, assignment.getCaseId(), assignment.getAssignedWorkerSub(),
                        assignment.getSupervisorSub(), assignment.getAssignmentRevision(), assignment.getJurisdiction(),
                        null);
            }
            return unexpected(record, "a CaseAssignment");
        }));
    }

    /**
     * The key contract, checked after the value: the key is the value's case id in canonical form, so every
     * record of a case hashes to one partition and so to one task. Anything else would let two tasks write
     * one case, or apply a record to a case its producer did not route it as.
     */
    private static Ingested keyed(byte[] key, Ingested read) {
        if (!(read instanceof Ingested.Accepted accepted)) {
            return read;
        }
        UUID caseId = accepted.update().caseId();
        if (key == null) {
            return rejected(Rejection.INVALID_KEY, "record has no key; events are keyed by their case id (" + caseId + ")");
        }
        UUID keyed = CaseIds.parseKey(key);
        if (keyed == null) {
            return rejected(Rejection.INVALID_KEY, "key " + Rejection.quote(key) + " is not a case id in canonical form"
                    + " (36 characters, lower-case hex, hyphens at 8, 13, 18 and 23); the value's case id is " + caseId);
        }
        if (!keyed.equals(caseId)) {
            return rejected(Rejection.KEY_MISMATCH, "key " + keyed + " names another case than the value's case id " + caseId);
        }
        return read;
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
                                     long revision, String jurisdiction, Instant occurredAt) {
        if (revision < 0) {
            return rejected(Rejection.NEGATIVE_REVISION, describe(type, eventId) + " for case " + caseId
                    + " has revision " + revision + "; revisions are >= 0");
        }
        UUID id = CaseIds.parse(caseId);
        if (id == null) {
            return rejected(Rejection.INVALID_CASE_ID, describe(type, eventId) + ": case_id " + Rejection.quote(caseId)
                    + " is not a UUID");
        }
        String problem = StorableText.subjectProblem("assigned_worker_sub", worker);
        if (problem == null) {
            problem = StorableText.subjectProblem("supervisor_sub", supervisor);
        }
        if (problem != null) {
            return rejected(Rejection.INVALID_TEXT, describe(type, eventId) + " for case " + id + ": " + problem);
        }
        String time = StorableTime.problem("occurred_at", occurredAt);
        if (time != null) {
            return rejected(Rejection.INVALID_OCCURRED_AT, describe(type, eventId) + " for case " + id + ": " + time);
        }
        if (jurisdiction != null && !Jurisdictions.isValidName(jurisdiction)) {
            return rejected(Rejection.INVALID_JURISDICTION, describe(type, eventId) + " for case " + id
                    + ": jurisdiction " + Rejection.quote(jurisdiction) + " is not a jurisdiction name ("
                    + Jurisdictions.PATTERN + ")");
        }
        return new Ingested.Accepted(AssignmentUpdate.changed(id, worker, supervisor, revision)
                .withJurisdiction(jurisdiction), eventId, occurredAt);
    }

    private static String describe(String type, String eventId) {
        return eventId == null ? type : type + " " + eventId;
    }

    private static Ingested unexpected(SpecificRecord record, String expected) {
        return rejected(Rejection.UNEXPECTED_RECORD_TYPE, record.getSchema().getFullName() + " is not " + expected);
    }

    private static Ingested rejected(String code, String message) {
        return new Ingested.Rejected(new Rejection(code, message));
    }
}
