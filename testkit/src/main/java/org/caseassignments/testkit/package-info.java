/**
 * Test fixtures shared by all modules (test scope only): a real PostgreSQL with a freshly migrated
 * database per test class, a real Kafka broker, builders for events and rows, and a publisher that
 * sends events in exactly the given order.
 */
package org.caseassignments.testkit;
