package org.caseassignments.store;

/**
 * The one order in which every writer takes row locks; no path takes them in any other, so no two writers
 * can wait for each other in a cycle:
 * <ol>
 *   <li>the case's projection row ({@code case_assignments}): the projector's upsert locks it
 *       ({@link AssignmentWriter}, in case-id order within a batch); an API write holds it {@code FOR SHARE};</li>
 *   <li>the case-scoped rows ({@code placements}, {@code kinship_options}): the projector's entity-copy
 *       update after its upsert; an API update's locked re-read ({@code FOR NO KEY UPDATE}) or create's insert;</li>
 *   <li>the foster home ({@code foster_homes}): taken {@code FOR UPDATE} by the occupancy trigger when a
 *       placement becomes ACTIVE in it or moves to it while ACTIVE ({@link HomeGate}), after the placement's row
 *       lock; a home's own update locks it alone and only reads placements.</li>
 * </ol>
 * A statement locks at most one foster home (the destination; leaving a home frees a place and needs no lock),
 * so two placements swapping homes never wait for each other's home. The projector's entity-copy update
 * changes neither status nor home, so it never reaches the third step.
 */
public final class LockOrder {

    private LockOrder() {
    }
}
