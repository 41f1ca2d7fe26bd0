/**
 * Kafka serde for the case events: reads and writes the Confluent wire format (through any registry
 * that speaks the Confluent Schema Registry REST API) and Avro single-object encoding (against the
 * schemas bundled in this module), detects the framing from the first byte, and resolves every
 * writer schema to the current generated class.
 */
package org.caseassignments.schemas.serde;
