/**
 * The {@code replay} command: re-reads the case event topics from the beginning (or a timestamp) up
 * to the end offsets captured at its start, with its own consumer group, through the ingest path the
 * projector uses (decode and validate, dead-letter, guarded apply in one transaction per batch), and
 * commits offsets only after the database committed.
 */
package org.caseassignments.backfill.replay;
