package org.caseassignments.store;

/**
 * The foster-home occupancy and licence gate that the database enforces in every write's own transaction
 * (migration V6, decision 22): the SQLSTATEs its triggers refuse with, so that a writer can tell the refusal
 * from any other failure without reading a message. Each refusal's message is written for people: it names
 * the home and the counts, and may be shown to the caller as it is.
 *
 * <ul>
 *   <li>A placement that becomes ACTIVE in a home, or moves to another home while ACTIVE, takes that home
 *       {@code FOR UPDATE} (the last lock of {@link LockOrder}) and is refused when the home's ACTIVE
 *       placements would exceed its capacity (NULL: no limit) or the home's licence is not ACTIVE.</li>
 *   <li>A placement may be created in, or moved to, a PENDING or ACTIVE home while it is not ACTIVE; never a
 *       SUSPENDED or REVOKED one.</li>
 *   <li>A home's capacity may not go below its ACTIVE placements; the home's own row lock (the UPDATE's)
 *       serializes the check against every activation, which must take that row {@code FOR UPDATE}.</li>
 * </ul>
 */
public final class HomeGate {

    /** An activation, or a move of an ACTIVE placement, into a home whose ACTIVE placements fill its capacity. */
    public static final String AT_CAPACITY = "CAH01";

    /** A placement created in, moved to or activated in a home whose licence does not allow it. */
    public static final String NOT_LICENSED = "CAH02";

    /** A home's capacity lowered below the placements ACTIVE in it. */
    public static final String BELOW_OCCUPANCY = "CAH03";

    /** A placement becoming ACTIVE with no home, or an ACTIVE placement's home cleared. */
    public static final String NEEDS_HOME = "CAH04";

    /**
     * The home of an ENDED or CANCELLED placement changed, or changed by the write that ends or cancels it, or an ENDED
     * or CANCELLED placement given another status.
     */
    public static final String FINAL_KEEPS_HOME = "CAH05";

    /** A placement activated in, or moved or created into, a home of another jurisdiction than its case's. */
    public static final String OTHER_JURISDICTION = "CAH06";

    /**
     * An activation in a transaction that is not READ COMMITTED: its count of the home's ACTIVE placements could miss
     * one committed while it waited for the home's lock, and overfill the home. A server misconfiguration, never a
     * caller's fault.
     */
    public static final String NEEDS_READ_COMMITTED = "CAH07";

    private HomeGate() {
    }
}
