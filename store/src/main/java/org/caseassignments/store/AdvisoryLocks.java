package org.caseassignments.store;

/**
 * Every namespace of the advisory locks the services take on a hash of text, in one place: each is the first key of
 * PostgreSQL's two-key form ({@code pg_advisory_xact_lock(int4, int4)}), the hash the second. Locks of two namespaces
 * never meet, whatever their hashes, and none meets a lock of the one-key (bigint) form, which Flyway and the audit
 * partitions take: the two forms are distinct lock tags. So no text a caller controls (an Idempotency-Key) can hash
 * onto a case's queue, and a collision inside a namespace costs a wait (or a retry), never a wrong answer. A new
 * namespace is a new constant here, with a number no other holds. Why: decision 41.
 */
public enum AdvisoryLocks {

    /** A case's queue (decision 33), keyed by the case id: {@link LockOrder}, {@link CaseQueue}. 'cque'. */
    CASE_QUEUE(0x63717565),
    /** The claim of an Idempotency-Key, keyed by its scope (decision 17). 'idem'. */
    IDEMPOTENCY_KEY(0x6964656D),
    /**
     * A rebuild's claim on the projection's shadow, keyed by the shadow's name, held by the session for the whole run
     * ({@code pg_try_advisory_lock}), not by a transaction (decision 46). 'rbld'.
     */
    REBUILD(0x72626C64);

    private final int namespace;

    AdvisoryLocks(int namespace) {
        this.namespace = namespace;
    }

    /** The first key of every lock of this namespace; {@code pg_locks.classid} of a lock held. */
    public int namespace() {
        return namespace;
    }

    /** The second key (int4) for the SQL expression {@code text} of type {@code text}: its hash. */
    public static String keyOf(String text) {
        return "hashtext(" + text + ")";
    }

    /** The two arguments of a lock of this namespace on the SQL expression {@code text} of type {@code text}. */
    public String on(String text) {
        return namespace + ", " + keyOf(text);
    }
}
