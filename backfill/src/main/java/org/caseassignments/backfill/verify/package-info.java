/**
 * The {@code verify} command: compares the projection with a snapshot of the case service (the same
 * sources as {@code assignments}) and reports the cases missing, behind, ahead, or diverging at an
 * equal revision, with a bounded sample of each. Reads only.
 */
package org.caseassignments.backfill.verify;
