package org.caseassignments.schemas.serde;

import java.util.Map;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for case events, in either framing. A {@code null} value (a tombstone) stays
 * {@code null}; anything undecodable throws {@link EventDecodingException} with its {@link DecodeFailure}.
 */
public class CaseEventDeserializer implements Deserializer<SpecificRecord> {

    private AvroEventCodec codec = AvroEventCodec.singleObject();

    public CaseEventDeserializer() {
    }

    public CaseEventDeserializer(AvroEventCodec codec) {
        this.codec = codec;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.codec = new AvroEventCodec(SerdeSettings.from(configs), BundledSchemas.current());
    }

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        return data == null ? null : codec.decode(data);
    }
}
