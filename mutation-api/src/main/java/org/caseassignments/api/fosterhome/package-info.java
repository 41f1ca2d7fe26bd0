/**
 * Licensed foster homes: create, read and update (name, capacity, admin unit, license number, license
 * status PENDING → ACTIVE, ACTIVE ↔ SUSPENDED, anything → REVOKED, which is final). Not case-scoped,
 * so no staleness gate; but the same transaction, locked re-read and transition check as every update,
 * and an after-image decision when the admin unit or license status changes.
 */
package org.caseassignments.api.fosterhome;
