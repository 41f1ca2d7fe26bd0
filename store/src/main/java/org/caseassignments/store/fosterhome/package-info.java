/**
 * The foster home table's locks and writes ({@link org.caseassignments.store.fosterhome.FosterHomeRows}), for the
 * mutation API, which reads without a lock on its own: the home's lock is the last step of the lock order.
 */
package org.caseassignments.store.fosterhome;
