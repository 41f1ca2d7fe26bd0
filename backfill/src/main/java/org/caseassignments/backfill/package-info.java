/**
 * The backfill command-line application: loads assignments from a snapshot of the case service,
 * replays the event topics, rebuilds the projection beside the live one and swaps it in, repairs entity
 * copies, and verifies the projection, all through the never-rewind guard.
 */
package org.caseassignments.backfill;
