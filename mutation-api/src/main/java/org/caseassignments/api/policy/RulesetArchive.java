package org.caseassignments.api.policy;

import java.time.Instant;
import java.util.Optional;

/**
 * Where the last accepted replacement of each jurisdiction's ruleset outlives the process, shared by
 * every instance: a restart that finds an invalid file serves the version accepted before it instead
 * of denying the jurisdiction. Failures are the caller's to log; an archive never decides anything.
 */
public interface RulesetArchive {

    /** Keeps nothing: a restart with an invalid file denies its jurisdiction. */
    RulesetArchive NONE = new RulesetArchive() {
        @Override
        public void save(Accepted accepted) {
        }

        @Override
        public Optional<Accepted> find(String jurisdiction) {
            return Optional.empty();
        }

        @Override
        public void remove(String jurisdiction) {
        }
    };

    /**
     * One accepted ruleset document, as it was read.
     *
     * @param origin the file it came from
     */
    record Accepted(String jurisdiction, String version, String origin, String text, Instant acceptedAt) {
    }

    /** Replaces what is kept for the jurisdiction. */
    void save(Accepted accepted);

    Optional<Accepted> find(String jurisdiction);

    /** The jurisdiction's replacement was removed: nothing of it may come back. */
    void remove(String jurisdiction);
}
