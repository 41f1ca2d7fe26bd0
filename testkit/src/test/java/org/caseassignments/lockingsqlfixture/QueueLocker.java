package org.caseassignments.lockingsqlfixture;

import org.caseassignments.store.AdvisoryLocks;

/** What a service may not do: fill a lock on the case's queue from store's namespace, where LockingSql cannot see. */
public class QueueLocker {

    static final String LOCK = "SELECT pg_advisory_xact_lock(%s)";

    String lock() {
        return LOCK.formatted(AdvisoryLocks.CASE_QUEUE.on("?::text"));
    }
}
