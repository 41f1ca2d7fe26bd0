/**
 * What knows Kafka on the way of a case event into the projection, shared by the projector and the backfill jobs:
 * decode and validate a record (or say why not), wait out an unreachable schema registry, frame dead letters from the
 * record as it came in ({@link org.caseassignments.ingest.SourceRecord}), read trace headers. The write itself is
 * {@code store}'s ({@code BatchWriter}).
 */
package org.caseassignments.ingest;
