/**
 * The Kafka Streams application of the projector, one package from a record to its row: reads the case events as
 * raw bytes, decodes and validates them (bad records go to the dead-letter topic byte for byte), and hands accepted
 * events to the task's {@link org.caseassignments.projector.stream.PendingAssignments}, which keeps the highest
 * revision per case and writes them to PostgreSQL through the guarded writer before the task commits its input
 * offsets (and, while events are live, at each check ahead of it). While PostgreSQL fails, the write retries with
 * backoff and reports DOWN, so no offset moves past an unapplied event; events PostgreSQL refuses for their data
 * are dead-lettered in the same Kafka transaction; readiness is DOWN while a task cannot commit for longer than the
 * configured bound, or a partition with input stops moving. Optionally it also publishes every forward change to
 * the compacted {@code case.assignments} topic, through a monotonic filter over a persistent per-case revision
 * store.
 */
package org.caseassignments.projector.stream;
