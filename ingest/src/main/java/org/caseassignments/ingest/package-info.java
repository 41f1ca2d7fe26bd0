/**
 * The path every case event takes into the projection, shared by the projector and the replay job:
 * decode and validate (or dead-letter with the reason), reduce a batch, and apply it through the
 * guarded writer in one transaction.
 */
package org.caseassignments.ingest;
