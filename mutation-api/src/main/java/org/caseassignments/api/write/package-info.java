/**
 * The two write paths every resource shares, written once so the order of their steps cannot drift:
 * {@link org.caseassignments.api.write.GuardedUpdate} (pre-read, authorize before the transaction,
 * If-Match, then in one transaction the locked re-read, the staleness gate, the version check, the
 * transition check and the write) and {@link org.caseassignments.api.write.GuardedCreate} (derive the
 * assignment from the projection, authorize, then hold the projection row {@code FOR SHARE} while
 * inserting the in-transaction triple).
 */
package org.caseassignments.api.write;
