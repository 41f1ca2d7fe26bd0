/**
 * The placement table's locks and writes ({@link org.caseassignments.store.placement.PlacementRows}), for the mutation
 * API, which reads without a lock on its own: the row's lock comes after its case's hold, as the lock order says.
 */
package org.caseassignments.store.placement;
