package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.testkit.CaseEvents;
import org.junit.jupiter.api.Test;

class CaseEventReaderTests {

    private final AvroEventCodec codec = AvroEventCodec.singleObject();
    private final CaseEventReader reader = new CaseEventReader(codec);

    @Test
    void shouldTurnACreationIntoARevisionZeroUpdate() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.created(caseId).worker("w").supervisor("s").build(), false);

        Ingested ingested = reader.read(key(caseId), value);

        assertThat(ingested).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update()).isEqualTo(AssignmentUpdate.created(caseId, "w", "s")));
    }

    @Test
    void shouldTurnAChangeIntoAStrictlyNewerUpdate() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.changed(caseId, 7).worker(null).supervisor("s").build(), false);

        Ingested ingested = reader.read(key(caseId), value);

        assertThat(ingested).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update()).isEqualTo(AssignmentUpdate.changed(caseId, null, "s", 7)));
    }

    @Test
    void shouldCarryTheTraceIdOfAValidTraceparentAndIgnoreAnyOtherHeader() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.changed(caseId, 3).worker("w").supervisor("s").build(), false);
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        RecordHeaders traced = new RecordHeaders();
        traced.add("traceparent", ("00-" + trace + "-00f067aa0ba902b7-01").getBytes(StandardCharsets.US_ASCII));
        RecordHeaders malformed = new RecordHeaders();
        malformed.add("traceparent", "00-not-a-trace".getBytes(StandardCharsets.US_ASCII));

        assertThat(reader.read(key(caseId), value, traced)).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update()).isEqualTo(AssignmentUpdate.changed(caseId, "w", "s", 3).withTraceId(trace)));
        assertThat(reader.read(key(caseId), value, malformed)).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update()).isEqualTo(AssignmentUpdate.changed(caseId, "w", "s", 3)));
        assertThat(reader.read(key(UUID.randomUUID()), value, traced)).as("a rejection stays one")
                .isInstanceOf(Ingested.Rejected.class);
    }

    @Test
    void shouldCarryTheCaseJurisdictionOfEitherEventType() {
        UUID caseId = UUID.randomUUID();
        byte[] created = codec.encode("t", CaseEvents.created(caseId).jurisdiction("georgia").build(), false);
        byte[] changed = codec.encode("t", CaseEvents.changed(caseId, 2).jurisdiction("navajo-nation").build(), false);

        assertThat(reader.read(key(caseId), created)).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update().jurisdiction()).isEqualTo("georgia"));
        assertThat(reader.read(key(caseId), changed)).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update().jurisdiction()).isEqualTo("navajo-nation"));
    }

    @Test
    void shouldAcceptAnEventWithoutJurisdictionAsOneThatKeepsTheKnownJurisdiction() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.changed(caseId, 2).build(), false);

        assertThat(reader.read(key(caseId), value)).isInstanceOfSatisfying(Ingested.Accepted.class, a ->
                assertThat(a.update().jurisdiction()).isNull());
    }

    @Test
    void shouldRejectAJurisdictionThatIsNotAJurisdictionName() {
        for (String bad : new String[] {"", "Georgia", "geo rgia", "9lives", "a".repeat(64), "georgia\u0000"}) {
            byte[] value = codec.encode("t", CaseEvents.changed(UUID.randomUUID(), 1).jurisdiction(bad).build(), false);

            assertThat(rejection(value).code()).as(bad).isEqualTo(Rejection.INVALID_JURISDICTION);
        }
    }

    @Test
    void shouldRejectANegativeRevision() {
        byte[] value = codec.encode("t", CaseEvents.changed(UUID.randomUUID(), -3).build(), false);

        assertThat(rejection(value).code()).isEqualTo(Rejection.NEGATIVE_REVISION);
    }

    @Test
    void shouldRejectACaseIdThatIsNotACanonicalUuid() {
        var event = CaseEvents.changed(UUID.randomUUID(), 1).build();
        event.setCaseId("1-2-3-4-5");

        assertThat(rejection(codec.encode("t", event, false)))
                .satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.INVALID_CASE_ID))
                .satisfies(r -> assertThat(r.message()).contains("1-2-3-4-5"));
    }

    @Test
    void shouldRejectUndecodableBytesWithTheDecodeFailure() {
        assertThat(rejection("not avro".getBytes()).code()).isEqualTo("UNKNOWN_FRAMING");
        assertThat(rejection(null).code()).isEqualTo(Rejection.NULL_VALUE);
    }

    @Test
    void shouldRejectTheProjectionsOwnRecordOnTheInputTopic() {
        byte[] value = codec.encode("t", CaseAssignment.newBuilder().setCaseId(UUID.randomUUID().toString())
                .setAssignmentRevision(1).build(), false);

        assertThat(rejection(value).code()).isEqualTo(Rejection.UNEXPECTED_RECORD_TYPE);
    }

    @Test
    void shouldReadAProjectionRecordAsAStrictlyNewerUpdateWithoutAnEventId() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseAssignment.newBuilder().setCaseId(caseId.toString())
                .setAssignedWorkerSub("w").setSupervisorSub(null).setAssignmentRevision(4).build(), false);

        Ingested ingested = reader.readAssignment(key(caseId), value);

        assertThat(ingested).isEqualTo(new Ingested.Accepted(AssignmentUpdate.changed(caseId, "w", null, 4), null));
    }

    @Test
    void shouldReadARevisionZeroProjectionRecordAsTheCreationItCameFrom() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseAssignment.newBuilder().setCaseId(caseId.toString())
                .setAssignedWorkerSub("w").setSupervisorSub("s").setAssignmentRevision(0).build(), false);

        assertThat(((Ingested.Accepted) reader.readAssignment(key(caseId), value)).update())
                .isEqualTo(AssignmentUpdate.created(caseId, "w", "s"));
    }

    @Test
    void shouldRejectAnInputEventOrABadRecordOnTheProjectionTopic() {
        UUID caseId = UUID.randomUUID();
        byte[] event = codec.encode("t", CaseEvents.created(caseId).build(), false);
        byte[] negative = codec.encode("t", CaseAssignment.newBuilder().setCaseId(caseId.toString())
                .setAssignmentRevision(-1).build(), false);

        assertThat(reader.readAssignment(key(caseId), event)).isEqualTo(new Ingested.Rejected(new Rejection(
                Rejection.UNEXPECTED_RECORD_TYPE, "org.caseassignments.schemas.events.CaseCreated is not a CaseAssignment")));
        assertThat(((Ingested.Rejected) reader.readAssignment(key(caseId), negative)).rejection().code())
                .isEqualTo(Rejection.NEGATIVE_REVISION);
    }

    @Test
    void shouldCarryTheDecodeFailureAsTheCodeAndNotRepeatItInTheMessage() {
        Rejection rejection = rejection("not avro".getBytes());

        assertThat(rejection.code()).isEqualTo("UNKNOWN_FRAMING");
        assertThat(rejection.message()).startsWith("first byte 0x6E");
    }

    @Test
    void shouldKeepOriginalHeadersAndAddWhyAndWhere() {
        RecordHeaders original = new RecordHeaders();
        original.add("traceparent", "00-abc".getBytes());

        var headers = DeadLetters.headers(original, new Rejection("UNKNOWN_FRAMING", "first byte"), "case.events", 2, 41L);

        assertThat(DeadLetters.header(headers, "traceparent")).isEqualTo("00-abc");
        assertThat(DeadLetters.header(headers, DeadLetters.REASON)).isEqualTo("UNKNOWN_FRAMING");
        assertThat(DeadLetters.header(headers, DeadLetters.SOURCE_TOPIC)).isEqualTo("case.events");
        assertThat(DeadLetters.header(headers, DeadLetters.SOURCE_PARTITION)).isEqualTo("2");
        assertThat(DeadLetters.header(headers, DeadLetters.SOURCE_OFFSET)).isEqualTo("41");
    }

    @Test
    void shouldRejectAMissingKeyOrOneThatIsNotACanonicalCaseIdAsInvalidKey() {
        UUID caseId = UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
        byte[] value = codec.encode("t", CaseEvents.changed(caseId, 1).build(), false);

        assertThat(keyRejection(null, value)).satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.INVALID_KEY))
                .satisfies(r -> assertThat(r.message()).contains("no key"));
        assertThat(keyRejection("not-a-uuid".getBytes(), value))
                .satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.INVALID_KEY))
                .satisfies(r -> assertThat(r.message()).contains("'not-a-uuid'").contains(caseId.toString()));
        assertThat(keyRejection("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0".getBytes(), value).code())
                .as("upper case hashes to another partition than the canonical key").isEqualTo(Rejection.INVALID_KEY);
        assertThat(keyRejection((caseId + " ").getBytes(), value).code()).isEqualTo(Rejection.INVALID_KEY);
        assertThat(keyRejection(new byte[0], value).code()).isEqualTo(Rejection.INVALID_KEY);
    }

    @Test
    void shouldRejectAKeyNamingAnotherCaseAsKeyMismatch() {
        UUID caseId = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.created(caseId).build(), false);

        assertThat(keyRejection(key(other), value))
                .satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.KEY_MISMATCH))
                .satisfies(r -> assertThat(r.message()).contains(other.toString()).contains(caseId.toString()));
    }

    @Test
    void shouldAcceptTheCanonicalKeyOfAnUpperCaseCaseIdInTheValue() {
        UUID caseId = UUID.randomUUID();
        var event = CaseEvents.changed(caseId, 3).build();
        event.setCaseId(caseId.toString().toUpperCase());

        assertThat(reader.read(key(caseId), codec.encode("t", event, false))).isInstanceOf(Ingested.Accepted.class);
    }

    @Test
    void shouldRejectBytesTrailingAValidRecordAsMalformed() {
        UUID caseId = UUID.randomUUID();
        byte[] value = codec.encode("t", CaseEvents.changed(caseId, 1).build(), false);

        Ingested ingested = reader.read(key(caseId), java.util.Arrays.copyOf(value, value.length + 1));

        assertThat(ingested).isInstanceOfSatisfying(Ingested.Rejected.class,
                r -> assertThat(r.rejection().code()).isEqualTo("MALFORMED_PAYLOAD"));
    }

    @Test
    void shouldRejectSubjectsPostgreSQLCannotStoreAsInvalidText() {
        UUID caseId = UUID.randomUUID();
        byte[] nul = codec.encode("t", CaseEvents.changed(caseId, 1).worker("w\0rker").build(), false);
        byte[] tooLong = codec.encode("t", CaseEvents.changed(caseId, 1).supervisor("s".repeat(256)).build(), false);
        byte[] longest = codec.encode("t", CaseEvents.changed(caseId, 1).supervisor("s".repeat(255)).build(), false);

        assertThat(rejection(nul)).satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.INVALID_TEXT))
                .satisfies(r -> assertThat(r.message()).contains(caseId.toString())
                        .endsWith(org.caseassignments.store.StorableText.subjectProblem("assigned_worker_sub", "w\0rker")));
        assertThat(rejection(tooLong)).satisfies(r -> assertThat(r.code()).isEqualTo(Rejection.INVALID_TEXT))
                .satisfies(r -> assertThat(r.message()).contains("supervisor_sub is 256 characters long"));
        assertThat(reader.read(key(caseId), longest)).isInstanceOf(Ingested.Accepted.class);
    }

    @Test
    void shouldQuoteAHugeCaseIdShortlyInItsRejection() {
        var event = CaseEvents.changed(UUID.randomUUID(), 1).build();
        event.setCaseId("x".repeat(100_000));

        Rejection rejection = rejection(codec.encode("t", event, false));

        assertThat(rejection.code()).isEqualTo(Rejection.INVALID_CASE_ID);
        assertThat(rejection.message()).contains("(100000 characters)").hasSizeLessThan(300);
    }

    private Rejection keyRejection(byte[] key, byte[] value) {
        Ingested ingested = reader.read(key, value);
        assertThat(ingested).isInstanceOf(Ingested.Rejected.class);
        return ((Ingested.Rejected) ingested).rejection();
    }

    private static byte[] key(UUID caseId) {
        return caseId.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The value's own rejection: the value is checked before the key, so any key will do. */
    private Rejection rejection(byte[] value) {
        Ingested ingested = reader.read(null, value);
        assertThat(ingested).isInstanceOf(Ingested.Rejected.class);
        return ((Ingested.Rejected) ingested).rejection();
    }
}
