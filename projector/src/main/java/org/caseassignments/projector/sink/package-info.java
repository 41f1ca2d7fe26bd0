/**
 * The PostgreSQL stage of the projector, inside the Kafka Streams application: {@link
 * org.caseassignments.projector.sink.ProjectionWriter} gathers each task's accepted events in a
 * {@link org.caseassignments.projector.sink.PendingAssignments} store, one entry per case (the highest
 * revision), and the store applies them through the guarded writer in one transaction when Kafka
 * Streams flushes it — which it does before it commits the input offsets. While PostgreSQL fails the
 * flush retries with backoff and reports DOWN, so no offset moves past an unapplied event.
 */
package org.caseassignments.projector.sink;
