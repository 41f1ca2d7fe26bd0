package org.caseassignments.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroEventCodecTests {

    private RegistryStub registry;

    @BeforeEach
    void startRegistry() throws Exception {
        registry = new RegistryStub();
    }

    @AfterEach
    void stopRegistry() {
        registry.close();
    }

    static List<SpecificRecord> everyEventType() {
        return List.of(Fixtures.created(), Fixtures.changed(), Fixtures.assignment());
    }

    private AvroEventCodec confluentCodec() {
        return new AvroEventCodec(SerdeSettings.from(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString())),
                BundledSchemas.current());
    }

    @ParameterizedTest
    @MethodSource("everyEventType")
    void shouldRoundTripEveryEventTypeInSingleObjectEncoding(SpecificRecord event) {
        AvroEventCodec codec = AvroEventCodec.singleObject();

        byte[] bytes = codec.encode("case.events", event, false);

        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(AvroEventCodec.framingOf(bytes)).isEqualTo(AvroEventCodec.Framing.SINGLE_OBJECT);
        assertThat(codec.decode(bytes)).isEqualTo(event);
    }

    @ParameterizedTest
    @MethodSource("everyEventType")
    void shouldRoundTripEveryEventTypeInConfluentWireFormat(SpecificRecord event) {
        AvroEventCodec codec = confluentCodec();

        byte[] bytes = codec.encode("case.events", event, false);

        assertThat(bytes[0]).isEqualTo((byte) 0x00);
        assertThat(AvroEventCodec.framingOf(bytes)).isEqualTo(AvroEventCodec.Framing.CONFLUENT);
        assertThat(confluentCodec().decode(bytes)).isEqualTo(event);
    }

    @Test
    void shouldDetectTheFramingFromTheFirstByteAndDecodeBothWithOneCodec() {
        AvroEventCodec reader = confluentCodec();
        CaseCreated viaRegistry = Fixtures.created();
        CaseAssignmentChanged bundled = Fixtures.changed();

        byte[] confluent = confluentCodec().encode("case.events", viaRegistry, false);
        byte[] singleObject = AvroEventCodec.singleObject().encode("case.events", bundled, false);

        assertThat(reader.decode(confluent)).isEqualTo(viaRegistry);
        assertThat(reader.decode(singleObject)).isEqualTo(bundled);
    }

    @Test
    void shouldWriteTheConfluentHeaderWithTheIdTheRegistryAssigned() {
        CaseCreated event = Fixtures.created();
        byte[] bytes = confluentCodec().encode("case.events", event, false);
        int expectedId = registry.preRegister(CaseCreated.getClassSchema());

        int writtenId = java.nio.ByteBuffer.wrap(bytes, 1, 4).getInt();

        assertThat(writtenId).isEqualTo(expectedId);
        assertThat(registry.requests).contains(
                "POST /subjects/case.events-org.caseassignments.schemas.events.CaseCreated/versions");
    }

    @Test
    void shouldReadARecordWrittenWithAnOlderSchemaIntoTheCurrentClass() {
        Schema v0 = Fixtures.historicSchema("CaseCreated-v0.avsc");
        GenericRecord old = new GenericData.Record(v0);
        old.put("event_id", "e-1");
        old.put("case_id", "3f1b0c9e-8a36-4d7c-9a55-2f7c8f1f0a11");
        old.put("assigned_worker_sub", "worker-9");
        old.put("occurred_at", Fixtures.OCCURRED_AT.toEpochMilli());
        byte[] bytes = AvroEventCodec.encodeSingleObject(old, v0);

        SpecificRecord decoded = new AvroEventCodec(SerdeSettings.SINGLE_OBJECT,
                BundledSchemas.withWriterSchemas(List.of(v0))).decode(bytes);

        assertThat(decoded).isInstanceOf(CaseCreated.class);
        CaseCreated created = (CaseCreated) decoded;
        assertThat(created.getAssignedWorkerSub()).isEqualTo("worker-9");
        assertThat(created.getSupervisorSub()).isNull();
        assertThat(created.getOccurredAt()).isEqualTo(Fixtures.OCCURRED_AT);
    }

    @Test
    void shouldReadAConfluentRecordWrittenWithAnOlderSchemaFromTheRegistry() {
        Schema v0 = Fixtures.historicSchema("CaseCreated-v0.avsc");
        int id = registry.preRegister(v0);
        GenericRecord old = new GenericData.Record(v0);
        old.put("event_id", "e-2");
        old.put("case_id", "3f1b0c9e-8a36-4d7c-9a55-2f7c8f1f0a12");
        old.put("assigned_worker_sub", null);
        old.put("occurred_at", Fixtures.OCCURRED_AT.toEpochMilli());
        byte[] body = AvroEventCodec.encodeSingleObject(old, v0);
        byte[] confluent = new byte[5 + body.length - 10];
        confluent[0] = 0;
        java.nio.ByteBuffer.wrap(confluent, 1, 4).putInt(id);
        System.arraycopy(body, 10, confluent, 5, body.length - 10);

        CaseCreated created = (CaseCreated) confluentCodec().decode(confluent);

        assertThat(created.getCaseId()).isEqualTo("3f1b0c9e-8a36-4d7c-9a55-2f7c8f1f0a12");
        assertThat(created.getSupervisorSub()).isNull();
    }

    @Test
    void shouldRefuseAChangeWithoutAssignmentRevisionWithAnErrorThatSaysSo() {
        Schema withoutRevision = Fixtures.historicSchema("CaseAssignmentChanged-without-revision.avsc");
        GenericRecord record = new GenericData.Record(withoutRevision);
        record.put("event_id", "e-3");
        record.put("case_id", "3f1b0c9e-8a36-4d7c-9a55-2f7c8f1f0a13");
        record.put("assigned_worker_sub", "worker-1");
        record.put("supervisor_sub", null);
        record.put("occurred_at", Fixtures.OCCURRED_AT.toEpochMilli());
        byte[] bytes = AvroEventCodec.encodeSingleObject(record, withoutRevision);
        AvroEventCodec codec = new AvroEventCodec(SerdeSettings.SINGLE_OBJECT,
                BundledSchemas.withWriterSchemas(List.of(withoutRevision)));

        assertThatThrownBy(() -> codec.decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.MISSING_REQUIRED_FIELD))
                .hasMessageContaining("assignment_revision")
                .hasMessageContaining("required");
    }

    @Test
    void shouldRefuseAnUnknownFirstByte() {
        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode("{\"case_id\":1}".getBytes()))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNKNOWN_FRAMING))
                .hasMessageContaining("0x7B");
    }

    @Test
    void shouldRefuseASingleObjectFingerprintItDoesNotKnow() {
        byte[] bytes = AvroEventCodec.singleObject().encode("t", Fixtures.created(), false);
        bytes[5] ^= 0x5A;

        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNKNOWN_SCHEMA));
    }

    @Test
    void shouldRefuseATruncatedBodyAsMalformed() {
        byte[] bytes = AvroEventCodec.singleObject().encode("t", Fixtures.changed(), false);
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 12);

        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode(truncated))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.MALFORMED_PAYLOAD));
    }

    @Test
    void shouldRefuseBytesTrailingAValidRecordAsMalformed() {
        byte[] bytes = AvroEventCodec.singleObject().encode("t", Fixtures.changed(), false);
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 3);

        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode(trailing))
                .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                    assertThat(e.failure()).isEqualTo(DecodeFailure.MALFORMED_PAYLOAD);
                    assertThat(e.getMessage()).contains("bytes follow the end of the");
                });
    }

    @Test
    void shouldBoundAvroLengthsOnceTheCodecIsLoaded() {
        AvroEventCodec.singleObject();

        assertThat(DecodeLimits.inForce()).as("Avro refuses lengths past the codec's limits").isTrue();
    }

    @Test
    void shouldRefuseAStringLongerThanTheDecodeLimitAsMalformedEvenWhenTheBytesAreThere() {
        CaseAssignmentChanged event = Fixtures.changed();
        event.setEventId("e".repeat(DecodeLimits.MAX_LENGTH + 1));
        byte[] bytes = AvroEventCodec.singleObject().encode("t", event, false);

        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                    assertThat(e.failure()).isEqualTo(DecodeFailure.MALFORMED_PAYLOAD);
                    assertThat(e.getMessage()).contains("exceeds maximum");
                });
    }

    @Test
    void shouldRefuseAConfluentRecordWhenNoRegistryIsConfigured() {
        byte[] bytes = confluentCodec().encode("t", Fixtures.created(), false);

        assertThatThrownBy(() -> AvroEventCodec.singleObject().decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNKNOWN_SCHEMA))
                .hasMessageContaining("schema.registry.url");
    }

    @Test
    void shouldRefuseARecordTypeThatIsNotACaseEvent() {
        Schema foreign = new Schema.Parser().parse("""
                {"type":"record","name":"Invoice","namespace":"billing","fields":[{"name":"n","type":"int"}]}""");
        int id = registry.preRegister(foreign);
        byte[] bytes = {0, 0, 0, 0, (byte) id, 2};

        assertThatThrownBy(() -> confluentCodec().decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNKNOWN_SCHEMA))
                .hasMessageContaining("billing.Invoice");
    }

    @Test
    void shouldReportAnUnreachableRegistryAsTransient() {
        byte[] bytes = confluentCodec().encode("t", Fixtures.created(), false);
        registry.failWithStatus = 503;

        assertThatThrownBy(() -> confluentCodec().decode(bytes))
                .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                    assertThat(e.failure()).isEqualTo(DecodeFailure.REGISTRY_UNAVAILABLE);
                    assertThat(e.failure().isTransient()).isTrue();
                });
    }

    @ParameterizedTest
    @MethodSource("answersThatAreNoPlainAvro")
    void shouldRefuseARegistrySchemaItCannotUseAsUnsupported(String answer) {
        int id = registry.preRegisterAnswer(answer);
        byte[] bytes = {0, 0, 0, 0, (byte) id, 2};
        AvroEventCodec codec = confluentCodec();

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> codec.decode(bytes))
                    .isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNSUPPORTED_SCHEMA))
                    .hasMessageContaining("schema id " + id);
        }
        // a schema id never changes what it stands for, so the registry is asked once
        assertThat(registry.requestsFor(id)).isEqualTo(1);
    }

    static List<String> answersThatAreNoPlainAvro() {
        return List.of(
                "{\"schemaType\":\"JSON\",\"schema\":\"{\\\"type\\\":\\\"object\\\"}\"}",
                "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}",
                "{\"schema\":\"\\\"string\\\"\",\"references\":[{\"name\":\"a.B\",\"subject\":\"b\",\"version\":1}]}",
                "{\"schema\":\"not a schema\"}");
    }

    @Test
    void shouldReportA404AsTransientWithinTheNotFoundWindowAndAsUnknownAfterIt() {
        int id = registry.reserveId();
        byte[] bytes = {0, 0, 0, 0, (byte) id, 2};
        AvroEventCodec waiting = codecWithNotFoundWindow("3600000");
        AvroEventCodec notWaiting = codecWithNotFoundWindow("0");

        assertThatThrownBy(() -> waiting.decode(bytes)).isInstanceOfSatisfying(EventDecodingException.class,
                e -> assertThat(e.failure().isTransient()).isTrue());
        assertThatThrownBy(() -> notWaiting.decode(bytes)).isInstanceOfSatisfying(EventDecodingException.class,
                e -> assertThat(e.failure()).isEqualTo(DecodeFailure.UNKNOWN_SCHEMA));
    }

    private AvroEventCodec codecWithNotFoundWindow(String millis) {
        return new AvroEventCodec(SerdeSettings.from(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString(),
                SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, millis)), BundledSchemas.current());
    }
}
