package org.caseassignments.store.lockingsqlfixture;

/** A class in store: the one module whose SQL may lock and write the tables of the lock order. */
public class StoreWriter {

    static final String TOUCH = "UPDATE placements SET status = 'ENDED' WHERE id = ?";
}
