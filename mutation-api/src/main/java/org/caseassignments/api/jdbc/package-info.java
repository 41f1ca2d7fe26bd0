/**
 * Statements of different features sent to PostgreSQL in one round trip ({@link org.caseassignments.api.jdbc.OneRoundTrip}),
 * and the migrations' connection opened with the pool's connection properties.
 */
package org.caseassignments.api.jdbc;
