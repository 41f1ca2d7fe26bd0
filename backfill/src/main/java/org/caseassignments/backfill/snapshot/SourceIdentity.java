package org.caseassignments.backfill.snapshot;

/**
 * Recognises a snapshot source again on resume.
 *
 * @param description  e.g. {@code csv file /data/snap.csv} or {@code jdbc jdbc:postgresql://… query SELECT …}
 * @param size         file size in bytes, or −1 for a query
 * @param modifiedMillis file modification time, or −1 for a query
 */
public record SourceIdentity(String description, long size, long modifiedMillis) {
}
