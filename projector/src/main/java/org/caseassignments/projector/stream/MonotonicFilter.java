package org.caseassignments.projector.stream;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.schemas.events.CaseAssignment;
import org.caseassignments.store.AssignmentUpdate;

/**
 * For the published projection ({@code projector.publish-assignments}): forwards an update only if its
 * revision is higher than every revision seen for its case, and remembers it. A creation is revision 0,
 * so it passes only for a case never seen. The database write does not go through it; the database
 * guard stays authoritative there.
 */
final class MonotonicFilter implements Processor<String, AssignmentUpdate, String, SpecificRecord> {

    private final IngestMetrics metrics;
    private ProcessorContext<String, SpecificRecord> context;
    private KeyValueStore<String, Long> revisions;

    MonotonicFilter(IngestMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        this.revisions = context.getStateStore(ProjectorTopology.REVISIONS_STORE);
    }

    @Override
    public void process(Record<String, AssignmentUpdate> record) {
        AssignmentUpdate update = record.value();
        Long seen = revisions.get(record.key());
        if (seen != null && update.revision() <= seen) {
            metrics.filtered();
            return;
        }
        revisions.put(record.key(), update.revision());
        context.forward(record.withValue((SpecificRecord) CaseAssignment.newBuilder()
                .setCaseId(record.key())
                .setAssignedWorkerSub(update.assignedWorkerSub())
                .setSupervisorSub(update.supervisorSub())
                .setAssignmentRevision(update.revision())
                .setJurisdiction(update.jurisdiction())
                .build()));
    }
}
