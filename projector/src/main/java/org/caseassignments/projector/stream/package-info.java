/**
 * The Kafka Streams stage of the projector: reads the case events as raw bytes, decodes and
 * validates them (bad records go to the dead-letter topic byte for byte), drops stale and duplicate
 * events against a persistent per-case revision store, and publishes every forward change to the
 * compacted {@code case.assignments} topic — exactly once, so the store never runs ahead of that topic.
 */
package org.caseassignments.projector.stream;
