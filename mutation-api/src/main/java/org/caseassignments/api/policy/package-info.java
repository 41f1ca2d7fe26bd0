/**
 * Authorization as data: one ruleset per jurisdiction, each a version and a list of allow rules
 * whose conditions are CEL expressions over {@code claims}, {@code resource} and {@code action}.
 * Rulesets are compiled and type-checked when loaded, bundled defaults come from the classpath, a
 * configured directory overrides and adds, and a poller replaces them while the service runs (an
 * invalid file is rejected and the last good version keeps serving). The engine denies by default,
 * logs every decision with the ruleset version, and refuses to run inside a transaction.
 */
package org.caseassignments.api.policy;
