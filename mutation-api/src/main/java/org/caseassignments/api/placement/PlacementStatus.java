package org.caseassignments.api.placement;

import java.util.EnumSet;
import java.util.Set;

/** PROPOSED → ACTIVE or CANCELLED; ACTIVE → ENDED; ENDED and CANCELLED are final. */
enum PlacementStatus {
    PROPOSED, ACTIVE, ENDED, CANCELLED;

    Set<PlacementStatus> next() {
        return switch (this) {
            case PROPOSED -> EnumSet.of(ACTIVE, CANCELLED);
            case ACTIVE -> EnumSet.of(ENDED);
            case ENDED, CANCELLED -> EnumSet.noneOf(PlacementStatus.class);
        };
    }
}
