/**
 * Authorization as data: one ruleset per jurisdiction, each a version and a list of allow rules
 * whose conditions are CEL expressions over {@code claims}, {@code resource} and {@code action}.
 * Rulesets are compiled, type-checked and vetted when loaded (each condition may read only resource
 * fields the update path re-reads under the row lock, within an evaluation budget), and each reports
 * per resource type and action the fields its rules read. Bundled defaults come from the classpath, a
 * configured directory overrides and adds, and a poller replaces them while the service runs (an
 * invalid file is rejected and the last good version keeps serving). The engine denies by default,
 * logs every decision with the ruleset version, and refuses to run inside a transaction.
 */
package org.caseassignments.api.policy;
