package org.caseassignments.api.policy;

import java.util.UUID;

import org.caseassignments.api.security.Caller;

/**
 * Whether a caller may read a foster home, decided as {@code GET /foster-homes/{id}} decides it; a list of the home's
 * records (its placements) is decided on it first, so a home of another jurisdiction answers its lists with the same
 * empty 403 as its single read, and a home that does not exist with the same 404.
 */
public interface FosterHomeReads {

    /**
     * @throws org.caseassignments.api.problem.ApiProblem 404 {@code NOT_FOUND} when no home has this id
     * @throws PolicyDenied when the caller may not read the home
     */
    void requireReadable(Caller caller, UUID homeId);
}
