package org.caseassignments.store.rebuild.lockingsqlfixture;

/** Stands for an operation of store's rebuild package, which no service may call. */
public class Swap {

    public static void run() {
    }
}
