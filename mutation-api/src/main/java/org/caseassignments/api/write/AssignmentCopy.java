package org.caseassignments.api.write;

/** A case-scoped row's copy of its case's assignment revision, which a write's audit record names. */
public interface AssignmentCopy {

    long assignmentRevision();
}
