/**
 * The batch stage of the projector, inside the Kafka Streams application: {@link WriteScheduler}
 * gathers each task's accepted events in a {@link PendingAssignments} store, one entry per case (the
 * highest revision), and the store applies them through the guarded writer in one transaction when Kafka
 * Streams flushes it — which it does before it commits the input offsets. While PostgreSQL fails the
 * flush retries with backoff and reports DOWN, so no offset moves past an unapplied event; events
 * PostgreSQL refuses for their data are set aside and dead-lettered in the same Kafka transaction; and
 * readiness is DOWN while a task cannot commit for longer than the configured bound.
 */
package org.caseassignments.projector.batch;
