/**
 * The {@code repair} command: brings placement and kinship rows whose copy of the assignment differs from their
 * case's projection row to the projection's triple, in batches of cases, through the store's follow under its guard
 * (a copy never moves to an older revision) and lock order (the case row first); also the count of such copies that
 * {@code repair --dry-run} and {@code rebuild --dry-run} report.
 */
package org.caseassignments.backfill.repair;
