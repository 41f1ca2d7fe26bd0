/**
 * Kinship options (relatives considered for kinship care): create (assignment derived from the
 * projection), read, list, update (names, relationship, approved) and soft delete, which is authorized
 * as an update. A soft-deleted option is gone for every reader and writer: GET answers 404, lists
 * leave it out, and a racing update finds no live row to lock (404), so it can never be resurrected.
 */
package org.caseassignments.api.kinship;
