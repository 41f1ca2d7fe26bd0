package org.caseassignments.api.write;

/**
 * A row with an optimistic-concurrency version, incremented by every write; its strong ETag is a MAC
 * of it ({@code EntityTags}).
 */
public interface Versioned {

    long rowVersion();
}
