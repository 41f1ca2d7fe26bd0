package org.caseassignments.schemas.serde;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;

/**
 * The record types this module knows, and the writer schemas that single-object encoding can
 * resolve by fingerprint. Every current schema is known, and so is every earlier version this project
 * has published ({@value #HISTORY}), so producers that have not upgraded keep being read; further
 * versions are added with {@link #withWriterSchemas(List)}.
 */
public final class BundledSchemas {

    /** Current classes, one per record type. Readers decode into these. */
    public static final List<Class<? extends SpecificRecord>> RECORD_CLASSES =
            List.of(CaseCreated.class, CaseAssignmentChanged.class, CaseAssignment.class);

    static {
        // Avro refuses to instantiate classes it does not trust; ours are generated from this module.
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                ClassSecurityValidator.getGlobal(),
                ClassSecurityValidator.builder()
                        .add(CaseCreated.class)
                        .add(CaseAssignmentChanged.class)
                        .add(CaseAssignment.class)
                        .build()));
    }

    /** Earlier versions of the bundled schemas, still written by producers that have not upgraded. */
    static final String HISTORY = "/avro-history/";
    private static final List<String> PUBLISHED_VERSIONS =
            List.of("CaseCreated-v1.avsc", "CaseAssignmentChanged-v1.avsc", "CaseAssignment-v1.avsc");

    private static final BundledSchemas CURRENT = new BundledSchemas(List.of());

    private final Map<String, Schema> readerSchemasByName;
    private final Map<Long, Schema> writerSchemasByFingerprint = new ConcurrentHashMap<>();

    private BundledSchemas(List<Schema> extraWriterSchemas) {
        this.readerSchemasByName = RECORD_CLASSES.stream()
                .map(BundledSchemas::schemaOf)
                .collect(Collectors.toUnmodifiableMap(Schema::getFullName, Function.identity()));
        Stream.of(readerSchemasByName.values().stream(), publishedVersions().stream(), extraWriterSchemas.stream())
                .flatMap(Function.identity())
                .forEach(s -> writerSchemasByFingerprint.put(fingerprint(s), s));
    }

    /** The earlier versions of this module's own schemas, read from the classpath. */
    static List<Schema> publishedVersions() {
        List<Schema> schemas = new ArrayList<>();
        for (String name : PUBLISHED_VERSIONS) {
            try (InputStream in = BundledSchemas.class.getResourceAsStream(HISTORY + name)) {
                if (in == null) {
                    throw new IllegalStateException("Bundled schema history " + HISTORY + name + " is missing");
                }
                schemas.add(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read bundled schema history " + HISTORY + name, e);
            }
        }
        return schemas;
    }

    /** The bundled current schemas only. */
    public static BundledSchemas current() {
        return CURRENT;
    }

    /** The current schemas plus older writer schemas that single-object records may carry. */
    public static BundledSchemas withWriterSchemas(List<Schema> olderWriterSchemas) {
        return new BundledSchemas(new ArrayList<>(olderWriterSchemas));
    }

    /** CRC-64-AVRO fingerprint of the schema's parsing canonical form, as single-object encoding uses. */
    public static long fingerprint(Schema schema) {
        return SchemaNormalization.parsingFingerprint64(schema);
    }

    public Optional<Schema> writerSchema(long fingerprint) {
        return Optional.ofNullable(writerSchemasByFingerprint.get(fingerprint));
    }

    /**
     * The current schema that a record written with {@code writer} decodes into: same full name, or
     * failing that the same simple name (a producer may use another namespace).
     */
    public Optional<Schema> readerSchemaFor(Schema writer) {
        Schema byFullName = readerSchemasByName.get(writer.getFullName());
        if (byFullName != null) {
            return Optional.of(byFullName);
        }
        return readerSchemasByName.values().stream()
                .filter(s -> s.getName().equals(writer.getName()))
                .findFirst();
    }

    static Schema schemaOf(Class<? extends SpecificRecord> type) {
        try {
            return (Schema) type.getField("SCHEMA$").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Generated class without SCHEMA$: " + type, e);
        }
    }
}
