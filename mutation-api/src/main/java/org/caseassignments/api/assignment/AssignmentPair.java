package org.caseassignments.api.assignment;

/**
 * The part of a case's assignment a decision consumes: its worker and its supervisor, either null
 * while unassigned or unknown. Two pairs are equal iff both halves are.
 */
public record AssignmentPair(String assignedWorkerSub, String supervisorSub) {

    public static final AssignmentPair NONE = new AssignmentPair(null, null);
}
