/**
 * The local stack: one command that starts a real KRaft broker and an embedded PostgreSQL, then
 * the projector and the mutation API as they run in production (their own executable jars, their
 * own processes, configured by the same environment variables), prints how to use them, and stops
 * everything on Ctrl-C.
 */
package org.caseassignments.local;
