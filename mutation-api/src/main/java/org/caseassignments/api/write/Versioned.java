package org.caseassignments.api.write;

/**
 * A row with an optimistic-concurrency version, moved by the database on every UPDATE (V15); its strong ETag is a MAC
 * of it ({@code EntityTags}), and of what the body shows that no write of the row changes.
 */
public interface Versioned {

    long rowVersion();

    /**
     * The part of the body that changes without a write of the row, read in the statement that read the body, so
     * that a tag never names two bodies (decision 44); empty when the row's version covers the whole body. Each type
     * encodes it unambiguously: it ends the message the tag is a MAC of.
     */
    default byte[] derivedState() {
        return new byte[0];
    }
}
