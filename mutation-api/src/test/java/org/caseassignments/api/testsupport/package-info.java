/**
 * Test fixtures of the mutation API: tokens signed with a key pair made for the test run, a small
 * HTTP client that never throws on an error status, a transaction held open on its own connection
 * (to hold row locks or to run the projector's apply at a chosen moment), and observation of which
 * backend waits on which lock.
 */
package org.caseassignments.api.testsupport;
