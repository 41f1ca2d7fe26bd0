package org.caseassignments.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One revision of a case's assignment as a writer was given it, for the case's history: every one is
 * recorded once per (case, revision), whether or not it moves the projection.
 *
 * @param occurredAt when the case service committed it (the event's {@code occurred_at}); null when unknown
 */
public record SeenRevision(AssignmentUpdate update, Instant occurredAt) {

    public SeenRevision {
        Objects.requireNonNull(update, "update");
    }

    /** Updates that say no time (snapshot rows, callers without events). */
    public static List<SeenRevision> of(List<AssignmentUpdate> updates) {
        List<SeenRevision> seen = new ArrayList<>(updates.size());
        updates.forEach(update -> seen.add(new SeenRevision(update, null)));
        return seen;
    }
}
