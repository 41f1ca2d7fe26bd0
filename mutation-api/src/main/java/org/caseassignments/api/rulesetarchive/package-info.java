/**
 * Keeps the last accepted replacement of each jurisdiction's ruleset in PostgreSQL, so that every
 * instance, and each after a restart, can serve it when the file on disk is invalid. The storage side
 * of {@link org.caseassignments.api.policy.RulesetArchive}, kept out of the policy package, which knows
 * nothing of storage.
 */
package org.caseassignments.api.rulesetarchive;
