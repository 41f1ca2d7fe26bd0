/**
 * The backfill command-line application: loads assignments from a snapshot of the case service,
 * replays the event topics, and verifies the projection, all through the never-rewind guard.
 */
package org.caseassignments.backfill;
