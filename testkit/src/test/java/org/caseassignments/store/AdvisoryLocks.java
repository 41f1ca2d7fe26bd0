package org.caseassignments.store;

/**
 * Stands for store's lock namespaces, under the name the rule knows (the testkit does not depend on store): the case
 * queue's, which no class outside store may reach.
 */
public enum AdvisoryLocks {

    CASE_QUEUE;

    public String on(String text) {
        return "0, hashtext(" + text + ")";
    }
}
