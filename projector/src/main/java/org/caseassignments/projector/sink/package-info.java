/**
 * The PostgreSQL stage of the projector: consumes the compacted {@code case.assignments} topic in
 * batches, applies each batch through the guarded writer in one transaction, and lets the consumer
 * commit its offsets only after that transaction committed. While PostgreSQL fails it retries the
 * same batch with backoff, forever, and reports DOWN.
 */
package org.caseassignments.projector.sink;
