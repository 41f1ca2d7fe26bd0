package org.caseassignments.schemas.serde;

import java.util.Map;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Serde for case events (both directions share one {@link AvroEventCodec} and its caches). */
public class CaseEventSerde implements Serde<SpecificRecord> {

    private AvroEventCodec codec;

    public CaseEventSerde() {
        this(AvroEventCodec.singleObject());
    }

    public CaseEventSerde(AvroEventCodec codec) {
        this.codec = codec;
    }

    /** A serde configured from Kafka-style settings; single-object encoding when no registry URL is given. */
    public static CaseEventSerde of(Map<String, ?> configs) {
        return new CaseEventSerde(new AvroEventCodec(SerdeSettings.from(configs), BundledSchemas.current()));
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.codec = new AvroEventCodec(SerdeSettings.from(configs), BundledSchemas.current());
    }

    @Override
    public Serializer<SpecificRecord> serializer() {
        return new CaseEventSerializer(codec);
    }

    @Override
    public Deserializer<SpecificRecord> deserializer() {
        return new CaseEventDeserializer(codec);
    }
}
