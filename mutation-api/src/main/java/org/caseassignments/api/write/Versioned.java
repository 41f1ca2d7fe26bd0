package org.caseassignments.api.write;

/** A row with an optimistic-concurrency version, incremented by every write and sent as the strong ETag. */
public interface Versioned {

    long rowVersion();
}
