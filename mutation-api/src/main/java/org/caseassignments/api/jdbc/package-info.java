/**
 * The migrations' connection opened with the pool's connection properties.
 */
package org.caseassignments.api.jdbc;
