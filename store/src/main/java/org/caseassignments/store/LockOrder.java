package org.caseassignments.store;

import java.util.List;

/**
 * The one order in which every writer takes locks; no path takes them in any other, so no two writers can wait
 * for each other in a cycle:
 * <ol>
 *   <li>the case's queue: a transaction-scoped advisory lock keyed by the case ({@link #queueKey}, in the
 *       namespace {@link AdvisoryLocks#CASE_QUEUE}). Every API
 *       write takes it shared ({@link #queueShared}) in the statement that holds the case's row, just before the
 *       hold; the projector takes it exclusive only for the cases its first try could not lock at once
 *       ({@link CaseQueue}), in key order, holding no case row while it waits. PostgreSQL's lock manager queues a
 *       new shared request behind a waiting exclusive one, which its row locks do not do: new {@code FOR SHARE}
 *       lockers join the current holders while an updater waits, so without the queue a steady stream of API
 *       writes on one case would keep the projector's update of it waiting for ever (decision 33);</li>
 *   <li>the case's projection row ({@code case_assignments}): the projector's upsert locks it
 *       ({@link AssignmentWriter}, in case-id order within a batch); an API write holds it {@code FOR SHARE}
 *       ({@code hold.CaseHold}, with the queue before it);</li>
 *   <li>the case-scoped rows ({@code placements}, {@code kinship_options}): the projector's entity-copy
 *       update after its upsert; an API update's locked re-read ({@code FOR NO KEY UPDATE}) and write, or a create's
 *       insert ({@code placement.PlacementRows}, {@code kinship.KinshipOptionRows}), each taking the case's hold
 *       ({@code hold.HeldCase});</li>
 *   <li>the foster home ({@code foster_homes}): taken {@code FOR UPDATE} by the occupancy trigger when a
 *       placement becomes ACTIVE in it or moves to it while ACTIVE ({@link HomeGate}), after the placement's row
 *       lock; a home's own update locks it alone and only reads placements ({@code fosterhome.FosterHomeRows}).</li>
 * </ol>
 * A statement locks at most one foster home (the destination; leaving a home frees a place and needs no lock),
 * so two placements swapping homes never wait for each other's home. The projector's entity-copy update
 * changes neither status nor home, so it never reaches the fourth step. An API write takes the queue and the
 * row of one case only. The entity repair holds case rows {@code FOR SHARE} without the queue: it is one
 * statement per batch, not a stream, so it delays the projector once and cannot starve it.
 *
 * <p>Who writes which table: {@code case_assignments} is written by the projector's upsert (and a rebuild's shadow
 * of it, renamed in by the swap); {@code placements} and {@code kinship_options} by the projector's follow, the
 * entity repair and the API; {@code foster_homes} by the API and the occupancy trigger. The API's locks and writes
 * are this module's operations, in the packages named above: the API calls them and issues no such SQL of its own.
 * The classes whose SQL takes
 * these locks or writes these tables are {@link #WRITERS}, all of them this module's, and only those: an ArchUnit
 * rule every other module applies ({@code LockingSql}, testkit) reads the SQL in the string constants of its compiled
 * classes and fails for a lock or a write of these tables (or of {@code case_assignment_history}) outside
 * {@code store}, and {@code LockOrderTests} does the same for this module's classes not listed here, so a new writer
 * is an operation of this module, added here with its place in the order, before it can land. docs/architecture.md,
 * "Locks", says the same in prose.
 */
public final class LockOrder {

    /**
     * Every class whose SQL takes a lock of the order or writes a table it covers, with the steps it takes, in
     * order. Named by their fully qualified name; every one is a class of this module.
     */
    public static final List<Writer> WRITERS = List.of(
            new Writer("org.caseassignments.store.AssignmentWriter",
                    "the projector's upsert: case rows in case-id order, then the case-scoped rows of the cases it moved; "
                            + "the entity repair: case rows FOR SHARE in case-id order, then their case-scoped rows"),
            new Writer("org.caseassignments.store.CaseQueue",
                    "the projector's queue: exclusive, in key order, holding no case row, then the upsert's case rows"),
            new Writer("org.caseassignments.store.LockOrder", "the API's place in a case's queue (shared)"),
            new Writer("org.caseassignments.store.hold.CaseHold",
                    "an API write: the case's queue, then its case row FOR SHARE, before any case-scoped row"),
            new Writer("org.caseassignments.store.placement.PlacementRows",
                    "an API placement write: after CaseHold holds the case, the placement row (and the home, by trigger)"),
            new Writer("org.caseassignments.store.kinship.KinshipOptionRows",
                    "an API kinship write: after CaseHold holds the case, the kinship option row"),
            new Writer("org.caseassignments.store.fosterhome.FosterHomeRows",
                    "an API foster home update: the home alone (it only reads placements)"),
            new Writer("org.caseassignments.store.rebuild.ShadowTables",
                    "the rebuild's swap: renames case_assignments under a short ACCESS EXCLUSIVE lock, no row lock"),
            new Writer("org.caseassignments.store.history.SupersededHistory",
                    "the history purge: deletes superseded case_assignment_history rows, no lock of the order"));

    /**
     * A writer of the tables of the lock order.
     *
     * @param className the class whose SQL takes the locks
     * @param takes     which steps it takes, in which order
     */
    public record Writer(String className, String takes) {
    }

    /** The case-scoped tables (the third step): rows of one case that carry a copy of its assignment. */
    public enum CaseScopedTable {
        PLACEMENTS("placements"),
        KINSHIP_OPTIONS("kinship_options");

        private final String table;

        CaseScopedTable(String table) {
            this.table = table;
        }

        /** The table's name in SQL. */
        public String table() {
            return table;
        }

        static CaseScopedTable named(String table) {
            for (CaseScopedTable scoped : values()) {
                if (scoped.table.equals(table)) {
                    return scoped;
                }
            }
            throw new IllegalArgumentException("not a case-scoped table: " + table);
        }
    }

    private LockOrder() {
    }

    /**
     * The case's queue key (int4) for the SQL expression {@code caseId} of type {@code uuid}, within the namespace
     * {@link AdvisoryLocks#CASE_QUEUE}: no other namespace's lock meets it, whatever the hashes. Two cases whose keys
     * collide share a queue, which costs a wait, never a wrong answer.
     */
    public static String queueKey(String caseId) {
        return AdvisoryLocks.keyOf("(" + caseId + ")::text");
    }

    /** An API write's place in the case's queue: held until its transaction ends, shared with other API writes. */
    public static String queueShared(String caseId) {
        return "pg_advisory_xact_lock_shared(" + AdvisoryLocks.CASE_QUEUE.on("(" + caseId + ")::text") + ")";
    }

    /** The projector's place in the queues whose keys the SQL expression {@code key} (int4) names: exclusive. */
    static String queueExclusive(String key) {
        return "pg_advisory_xact_lock(" + AdvisoryLocks.CASE_QUEUE.namespace() + ", " + key + ")";
    }
}
