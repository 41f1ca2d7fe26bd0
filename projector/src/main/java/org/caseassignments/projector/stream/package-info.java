/**
 * The Kafka Streams application of the projector: reads the case events as raw bytes, decodes and
 * validates them (bad records go to the dead-letter topic byte for byte), and hands accepted events
 * to the PostgreSQL stage in {@code sink}, which writes them before each commit. Optionally it also
 * publishes every forward change to the compacted {@code case.assignments} topic, through a monotonic
 * filter over a persistent per-case revision store.
 */
package org.caseassignments.projector.stream;
