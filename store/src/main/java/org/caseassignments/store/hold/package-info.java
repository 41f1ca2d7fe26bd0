/**
 * An API write's hold of its case ({@link org.caseassignments.store.hold.CaseHold}): the case's queue, shared, and its
 * projection row {@code FOR SHARE}, the first two steps of the writers' lock order, taken before any case-scoped row;
 * and the columns through which a case-scoped row is read and written with its case's assignment from the projection.
 */
package org.caseassignments.store.hold;
