/**
 * The {@code occupancy} command: checks, in one read-only snapshot, that the foster-home gate's rules hold for every
 * row (decisions 22 and 43) — rows written before a rule existed or with the gate's triggers disabled are not refused
 * retroactively — and lists each row that breaks them by its ids.
 */
package org.caseassignments.backfill.occupancy;
