package org.caseassignments.api.write;

import java.util.UUID;

/**
 * A row that names a foster home (a placement) or is one: its write's audit record names that home and the
 * home's ACTIVE placements after the write (decision 22).
 */
public interface InFosterHome {

    /** The home; null when the row names none. */
    UUID fosterHomeId();
}
