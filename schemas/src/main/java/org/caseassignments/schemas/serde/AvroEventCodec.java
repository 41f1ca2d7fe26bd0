package org.caseassignments.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Encodes and decodes case events in either framing:
 * <ul>
 *   <li>Confluent wire format: {@code 0x00}, a 4-byte big-endian registry schema id, the Avro binary body;</li>
 *   <li>Avro single-object encoding: {@code 0xC3 0x01}, the 8-byte little-endian CRC-64-AVRO fingerprint
 *       of the writer schema, the Avro binary body.</li>
 * </ul>
 * The framing is detected from the first byte. Every writer schema is resolved to the current
 * generated class of the same record name, so records written by older producers decode into the
 * current classes. A body must end where its record ends: trailing bytes are {@code MALFORMED_PAYLOAD}.
 * Loading this class bounds Avro's string, bytes and collection lengths for the whole JVM
 * ({@link DecodeLimits}), so a corrupt length prefix is refused instead of allocated. Thread-safe.
 */
public final class AvroEventCodec {

    static {
        DecodeLimits.install();
    }

    static final byte CONFLUENT_MAGIC = 0x00;
    static final byte SINGLE_OBJECT_MARKER_0 = (byte) 0xC3;
    static final byte SINGLE_OBJECT_MARKER_1 = 0x01;
    /** Schema ids whose 404 window is tracked at most. */
    private static final int MAX_IDS_NOT_FOUND = 10_000;

    private final BundledSchemas schemas;
    private final SchemaRegistryClient registry;
    private final SerdeSettings settings;
    private final Map<Schema, DatumReader<SpecificRecord>> readersByWriterSchema = new ConcurrentHashMap<>();
    private final Map<Schema, Long> fingerprints = new ConcurrentHashMap<>();
    private final Map<Schema, SpecificDatumWriter<Object>> writersBySchema = new ConcurrentHashMap<>();
    /** When the registry first answered 404 for each schema id it has not known since (System.nanoTime). */
    private final Map<Integer, Long> notFoundSince = new ConcurrentHashMap<>();

    public AvroEventCodec(SerdeSettings settings, BundledSchemas schemas) {
        this.settings = settings;
        this.schemas = schemas;
        this.registry = settings.usesRegistry()
                ? new SchemaRegistryClient(settings.registryUrl(), settings.basicAuthUserInfo(), settings.registryTimeout())
                : null;
    }

    /** Single-object encoding against the bundled schemas; no registry. */
    public static AvroEventCodec singleObject() {
        return new AvroEventCodec(SerdeSettings.SINGLE_OBJECT, BundledSchemas.current());
    }

    /** Writes {@code record} with its own schema, in the Confluent framing when a registry is configured. */
    public byte[] encode(String topic, SpecificRecord record, boolean isKey) {
        Schema schema = record.getSchema();
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        if (registry != null) {
            String subject = settings.subjectNameStrategy().subject(topic, schema.getFullName(), isKey);
            int id = registry.register(subject, schema);
            out.write(CONFLUENT_MAGIC);
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(id).array());
        } else {
            long fingerprint = fingerprints.computeIfAbsent(schema, BundledSchemas::fingerprint);
            out.write(SINGLE_OBJECT_MARKER_0);
            out.write(SINGLE_OBJECT_MARKER_1);
            out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(fingerprint).array());
        }
        writeBody(writersBySchema.computeIfAbsent(schema, SpecificDatumWriter::new), record, schema, out);
        return out.toByteArray();
    }

    /** Writes {@code record} in single-object encoding with an explicit (for example older) writer schema. */
    public static byte[] encodeSingleObject(Object record, Schema writerSchema) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.write(SINGLE_OBJECT_MARKER_0);
        out.write(SINGLE_OBJECT_MARKER_1);
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(BundledSchemas.fingerprint(writerSchema)).array());
        writeBody(new SpecificDatumWriter<>(writerSchema), record, writerSchema, out);
        return out.toByteArray();
    }

    /** The framing of an encoded value, detected from its first bytes. */
    public static Framing framingOf(byte[] data) {
        if (data == null || data.length == 0) {
            throw new EventDecodingException(DecodeFailure.EMPTY_PAYLOAD, "record value is empty");
        }
        if (data[0] == CONFLUENT_MAGIC) {
            if (data.length < 5) {
                throw new EventDecodingException(DecodeFailure.MALFORMED_PAYLOAD,
                        "Confluent-framed value is " + data.length + " bytes, shorter than its 5-byte header");
            }
            return Framing.CONFLUENT;
        }
        if (data[0] == SINGLE_OBJECT_MARKER_0) {
            if (data.length < 10 || data[1] != SINGLE_OBJECT_MARKER_1) {
                throw new EventDecodingException(DecodeFailure.MALFORMED_PAYLOAD,
                        "value starts with C3 but is not a complete single-object header (C3 01 + 8-byte fingerprint)");
            }
            return Framing.SINGLE_OBJECT;
        }
        throw new EventDecodingException(DecodeFailure.UNKNOWN_FRAMING, String.format(
                "first byte 0x%02X is neither the Confluent magic byte 0x00 nor the single-object marker 0xC3",
                data[0] & 0xFF));
    }

    /** Decodes a value in either framing into the current generated class of its record type. */
    public SpecificRecord decode(byte[] data) {
        Framing framing = framingOf(data);
        Schema writer;
        int offset;
        if (framing == Framing.CONFLUENT) {
            int id = ByteBuffer.wrap(data, 1, 4).order(ByteOrder.BIG_ENDIAN).getInt();
            writer = registrySchema(id);
            offset = 5;
        } else {
            long fingerprint = ByteBuffer.wrap(data, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
            writer = schemas.writerSchema(fingerprint).orElseThrow(() -> new EventDecodingException(
                    DecodeFailure.UNKNOWN_SCHEMA, String.format(
                            "no bundled writer schema has fingerprint %016x; is the producer newer than this service?",
                            fingerprint)));
            offset = 10;
        }
        DatumReader<SpecificRecord> reader = readersByWriterSchema.computeIfAbsent(writer, this::resolvingReader);
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, offset, data.length - offset, null);
            SpecificRecord record = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new EventDecodingException(DecodeFailure.MALFORMED_PAYLOAD, "bytes follow the end of the "
                        + writer.getFullName() + " record (" + (data.length - offset) + "-byte body): a value holds one record");
            }
            return record;
        } catch (EventDecodingException e) {
            throw e;
        } catch (AvroTypeException e) {
            throw new EventDecodingException(DecodeFailure.INCOMPATIBLE_SCHEMA,
                    "cannot read " + writer.getFullName() + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new EventDecodingException(DecodeFailure.MALFORMED_PAYLOAD,
                    "corrupt " + writer.getFullName() + " body (" + (data.length - offset) + " bytes): " + e, e);
        }
    }

    private Schema registrySchema(int id) {
        if (registry == null) {
            throw new EventDecodingException(DecodeFailure.UNKNOWN_SCHEMA,
                    "Confluent-framed value with schema id " + id + " but no schema registry is configured ("
                            + SerdeSettings.REGISTRY_URL + ")");
        }
        try {
            Schema schema = registry.schemaById(id);
            if (!notFoundSince.isEmpty()) {
                notFoundSince.remove(id);
            }
            return schema;
        } catch (SchemaRegistryClient.SchemaNotFoundException e) {
            throw notFound(id, e);
        } catch (SchemaRegistryClient.UnsupportedSchemaException e) {
            throw new EventDecodingException(DecodeFailure.UNSUPPORTED_SCHEMA, e.getMessage(), e);
        } catch (SchemaRegistryClient.RegistryException e) {
            throw new EventDecodingException(DecodeFailure.REGISTRY_UNAVAILABLE, e.getMessage(), e);
        }
    }

    /**
     * A 404 for a schema id is transient ({@code REGISTRY_UNAVAILABLE}, retried by the caller) until
     * {@link SerdeSettings#registryNotFoundWindow()} has passed since the registry first answered 404 for it, then
     * {@code UNKNOWN_SCHEMA}: the window is counted per id, not per record, so a run of records with an id that never
     * comes waits once.
     */
    private EventDecodingException notFound(int id, SchemaRegistryClient.SchemaNotFoundException e) {
        long now = System.nanoTime();
        if (notFoundSince.size() >= MAX_IDS_NOT_FOUND) {
            notFoundSince.clear(); // ids of corrupt records, most likely; forgetting them costs one more window each
        }
        long since = notFoundSince.computeIfAbsent(id, unknown -> now);
        Duration window = settings.registryNotFoundWindow();
        if (now - since < window.toNanos()) {
            return new EventDecodingException(DecodeFailure.REGISTRY_UNAVAILABLE, "registry does not know schema id " + id
                    + " yet; asking again for up to " + window + " after its first 404 (a follower catching up?)", e);
        }
        return new EventDecodingException(DecodeFailure.UNKNOWN_SCHEMA, "registry has no schema id " + id
                + " (still unknown " + window + " after its first 404)", e);
    }

    private DatumReader<SpecificRecord> resolvingReader(Schema writer) {
        if (writer.getType() != Schema.Type.RECORD) {
            throw new EventDecodingException(DecodeFailure.UNKNOWN_SCHEMA,
                    "writer schema is a " + writer.getType() + ", not a record");
        }
        Schema reader = schemas.readerSchemaFor(writer).orElseThrow(() -> new EventDecodingException(
                DecodeFailure.UNKNOWN_SCHEMA, "record type " + writer.getFullName() + " is not a case event this service knows"));
        for (Schema.Field field : reader.getFields()) {
            if (!field.hasDefaultValue() && writerField(writer, field) == null) {
                throw new EventDecodingException(DecodeFailure.MISSING_REQUIRED_FIELD, reader.getName()
                        + " written without required field '" + field.name() + "' (it has no default)");
            }
        }
        return new SpecificDatumReader<>(writer, reader, SpecificData.get());
    }

    private static Schema.Field writerField(Schema writer, Schema.Field readerField) {
        Schema.Field byName = writer.getField(readerField.name());
        if (byName != null) {
            return byName;
        }
        return readerField.aliases().stream().map(writer::getField).filter(f -> f != null).findFirst().orElse(null);
    }

    private static void writeBody(SpecificDatumWriter<Object> writer, Object record, Schema schema,
                                  ByteArrayOutputStream out) {
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + schema.getFullName(), e);
        }
    }

    /** The two framings this codec reads and writes. */
    public enum Framing {
        CONFLUENT,
        SINGLE_OBJECT
    }
}
