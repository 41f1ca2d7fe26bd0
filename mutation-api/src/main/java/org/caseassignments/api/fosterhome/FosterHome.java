package org.caseassignments.api.fosterhome;

import java.time.Instant;
import java.util.Map;
import java.nio.ByteBuffer;
import java.util.UUID;

import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.write.InFosterHome;
import org.caseassignments.api.write.Versioned;

/**
 * A foster home row; it belongs to the jurisdiction that created it (null: created before homes carried one).
 * {@code activePlacements} is read with the row: the placements ACTIVE in the home (decision 22).
 */
record FosterHome(UUID id, String name, String licenseNumber, LicenseStatus licenseStatus, String adminUnit,
                  Integer capacity, long rowVersion, Instant createdAt, Instant updatedAt, String jurisdiction,
                  int activePlacements)
        implements Versioned, InFosterHome, ListPage.Row {

    /** The one builder of what the policy sees of a foster home: no case, no assignment, two attributes. */
    static ResourceRef resource(UUID id, String adminUnit, LicenseStatus licenseStatus, String jurisdiction) {
        return new ResourceRef(ResourceType.FOSTER_HOME, id, null, null, null,
                Map.of("admin_unit", adminUnit, "license_status", licenseStatus.name()), jurisdiction);
    }

    /**
     * The ACTIVE placements change with every activation and end in the home, which write no row of the home. None
     * for an empty home, whose tag stays the one of before V15.
     */
    @Override
    public byte[] derivedState() {
        return activePlacements == 0 ? new byte[0] : ByteBuffer.allocate(Long.BYTES).putLong(activePlacements).array();
    }

    @Override
    public ResourceRef resource() {
        return resource(id, adminUnit, licenseStatus, jurisdiction);
    }

    FosterHome with(UpdateFosterHomeRequest change) {
        return new FosterHome(id, Patch.apply(change.name(), name),
                Patch.apply(change.licenseNumber(), licenseNumber),
                Patch.apply(change.licenseStatus(), licenseStatus),
                Patch.apply(change.adminUnit(), adminUnit),
                Patch.apply(change.capacity(), capacity),
                rowVersion, createdAt, updatedAt, jurisdiction, activePlacements);
    }

    @Override
    public UUID fosterHomeId() {
        return id;
    }
}
