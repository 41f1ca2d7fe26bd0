/**
 * The audit trail (decision 18): a record of every successful create, update and delete, inserted in
 * the write's own transaction with the ruleset version, rule and assignment it was made under; a record
 * of every refused write (403, 409 {@code CONCURRENT_MODIFICATION} and the foster-home gate's 409s, 412) and of
 * every read of another jurisdiction's record, budgeted per jurisdiction and subject, queued and written in batches
 * outside the request pool; the month partitions kept ahead; and {@code GET /audit} for auditors.
 */
package org.caseassignments.api.audit;
