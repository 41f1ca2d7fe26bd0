package org.caseassignments.ingest;

import java.time.Duration;
import java.util.List;

import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.transaction.support.TransactionTemplate;

/** Applies one batch of accepted events through the guarded writer in one PostgreSQL transaction, and counts it. */
public final class ProjectionApplier {

    private final TransactionTemplate transaction;
    private final AssignmentWriter writer;
    private final IngestMetrics metrics;

    public ProjectionApplier(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics) {
        this.transaction = transaction;
        this.writer = writer;
        this.metrics = metrics;
    }

    /** One transaction; on failure nothing of the batch is applied and the exception propagates for a retry. */
    public ApplyResult apply(List<AssignmentUpdate> batch) {
        return apply(batch, batch.size());
    }

    /**
     * As {@link #apply(List)}, for updates already reduced from {@code events} events (the rest were
     * superseded by a higher revision of the same case): the meters count every event.
     */
    public ApplyResult apply(List<AssignmentUpdate> batch, int events) {
        if (batch.isEmpty()) {
            return new ApplyResult(0, List.of(), List.of(), 0, 0, 0);
        }
        long start = System.nanoTime();
        ApplyResult result = transaction.execute(status -> writer.apply(batch));
        metrics.batchApplied(events, result, Duration.ofNanos(System.nanoTime() - start));
        return result;
    }
}
