/**
 * Jurisdiction names: the form every module checks before a name reaches the database or a decision.
 * A case's jurisdiction comes from upstream on its events; a foster home's is the creator's.
 */
package org.caseassignments.schemas.jurisdiction;
