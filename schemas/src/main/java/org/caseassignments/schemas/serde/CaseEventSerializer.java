package org.caseassignments.schemas.serde;

import java.util.Map;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serializer for case events; see {@link AvroEventCodec} for the framings and {@link SerdeSettings} for the keys. */
public class CaseEventSerializer implements Serializer<SpecificRecord> {

    private AvroEventCodec codec = AvroEventCodec.singleObject();
    private boolean isKey;

    public CaseEventSerializer() {
    }

    public CaseEventSerializer(AvroEventCodec codec) {
        this.codec = codec;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        this.codec = new AvroEventCodec(SerdeSettings.from(configs), BundledSchemas.current());
    }

    @Override
    public byte[] serialize(String topic, SpecificRecord data) {
        return data == null ? null : codec.encode(topic, data, isKey);
    }
}
