package org.caseassignments.store;

/**
 * The one order in which every writer takes locks; no path takes them in any other, so no two writers can wait
 * for each other in a cycle:
 * <ol>
 *   <li>the case's queue: a transaction-scoped advisory lock keyed by the case ({@link #queueKey}). Every API
 *       write takes it shared ({@link #queueShared}) in the statement that holds the case's row, just before the
 *       hold; the projector takes it exclusive only for the cases its first try could not lock at once
 *       ({@link CaseQueue}), in key order, holding no case row while it waits. PostgreSQL's lock manager queues a
 *       new shared request behind a waiting exclusive one, which its row locks do not do: new {@code FOR SHARE}
 *       lockers join the current holders while an updater waits, so without the queue a steady stream of API
 *       writes on one case would keep the projector's update of it waiting for ever (decision 33);</li>
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
 * changes neither status nor home, so it never reaches the fourth step. An API write takes the queue and the
 * row of one case only. The entity repair holds case rows {@code FOR SHARE} without the queue: it is one
 * statement per batch, not a stream, so it delays the projector once and cannot starve it.
 */
public final class LockOrder {

    /**
     * Seeds the hash of a case id into a key of its own: Flyway's advisory lock (a fixed bigint) and any other
     * user of the bigint key space meet a case's key only by a 64-bit coincidence, which costs a wait, never
     * a wrong answer.
     */
    private static final long QUEUE_SEED = 0x636173655F71L;

    private LockOrder() {
    }

    /** The case's queue key (bigint) for the SQL expression {@code caseId} of type {@code uuid}. */
    public static String queueKey(String caseId) {
        return "hashtextextended((" + caseId + ")::text, " + QUEUE_SEED + ")";
    }

    /** An API write's place in the case's queue: held until its transaction ends, shared with other API writes. */
    public static String queueShared(String caseId) {
        return "pg_advisory_xact_lock_shared(" + queueKey(caseId) + ")";
    }
}
