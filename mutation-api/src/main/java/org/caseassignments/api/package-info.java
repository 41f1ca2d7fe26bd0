/**
 * The mutation API application: creates and changes placements, kinship options and foster homes,
 * authorizing against the case-assignment projection before any transaction opens.
 */
package org.caseassignments.api;
