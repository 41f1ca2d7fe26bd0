package org.caseassignments.lockingsqlfixture;

import org.caseassignments.store.rebuild.lockingsqlfixture.Swap;

/** What a service may not do: call an operation of store's rebuild package. */
public class SwappingService {

    void swap() {
        Swap.run();
    }
}
