/**
 * The {@code redrive} command: reads the dead-letter topic, skips the letters of records from other topics than the
 * input topics and those with malformed provenance headers, selects letters by reason, source partition, source
 * offsets or time, decodes each original record again with today's code and settings, applies those that now go
 * through with the projector's guarded writer (a dry run rolls them back), and reports those that still fail. It
 * never writes to the dead-letter topic and commits no consumer group: running it again is harmless.
 */
package org.caseassignments.backfill.redrive;
