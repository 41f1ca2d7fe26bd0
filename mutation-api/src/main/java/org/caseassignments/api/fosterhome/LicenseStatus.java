package org.caseassignments.api.fosterhome;

import java.util.EnumSet;
import java.util.Set;

/** PENDING → ACTIVE; ACTIVE ↔ SUSPENDED; any other status → REVOKED, which is final. */
enum LicenseStatus {
    PENDING, ACTIVE, SUSPENDED, REVOKED;

    Set<LicenseStatus> next() {
        return switch (this) {
            case PENDING -> EnumSet.of(ACTIVE, REVOKED);
            case ACTIVE -> EnumSet.of(SUSPENDED, REVOKED);
            case SUSPENDED -> EnumSet.of(ACTIVE, REVOKED);
            case REVOKED -> EnumSet.noneOf(LicenseStatus.class);
        };
    }
}
