package org.caseassignments.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The optional {@code jurisdiction} field is compatible both ways with the schemas published before it. */
class JurisdictionEvolutionTests {

    @ParameterizedTest
    @ValueSource(strings = {"CaseCreated", "CaseAssignmentChanged", "CaseAssignment"})
    void shouldReadRecordsOfThePreviousVersionAndLetItsReadersReadTheCurrentOne(String name) {
        Schema previous = BundledSchemas.publishedVersions().stream()
                .filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
        Schema current = BundledSchemas.current().readerSchemaFor(previous).orElseThrow();

        assertThat(previous.getField("jurisdiction")).isNull();
        assertThat(current.getField("jurisdiction")).isNotNull();
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, previous).getType())
                .as("current readers read %s records written before the field", name)
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(previous, current).getType())
                .as("readers that predate the field read current %s records", name)
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    @Test
    void shouldDecodeASingleObjectRecordOfAProducerThatPredatesTheFieldWithoutBeingToldItsSchema() {
        Schema previous = BundledSchemas.publishedVersions().stream()
                .filter(s -> s.getName().equals("CaseAssignmentChanged")).findFirst().orElseThrow();
        GenericRecord old = new GenericData.Record(previous);
        old.put("event_id", "e-1");
        old.put("case_id", "3f1b0c9e-8a36-4d7c-9a55-2f7c8f1f0a11");
        old.put("assigned_worker_sub", "worker-9");
        old.put("supervisor_sub", null);
        old.put("assignment_revision", 4L);
        old.put("occurred_at", Fixtures.OCCURRED_AT.toEpochMilli());

        CaseAssignmentChanged decoded = (CaseAssignmentChanged) AvroEventCodec.singleObject()
                .decode(AvroEventCodec.encodeSingleObject(old, previous));

        assertThat(decoded.getAssignmentRevision()).isEqualTo(4L);
        assertThat(decoded.getJurisdiction()).isNull();
    }

    @Test
    void shouldKnowEveryPublishedVersionOfEveryBundledRecordType() {
        List<String> names = BundledSchemas.publishedVersions().stream().map(Schema::getName).toList();

        assertThat(names).containsExactlyInAnyOrder(CaseCreated.getClassSchema().getName(),
                CaseAssignmentChanged.getClassSchema().getName(), CaseAssignment.getClassSchema().getName());
    }
}
