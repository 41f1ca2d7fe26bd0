/**
 * Statements of different features sent to PostgreSQL in one round trip ({@link org.caseassignments.api.jdbc.OneRoundTrip}).
 */
package org.caseassignments.api.jdbc;
