package org.caseassignments.api.testsupport;

import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.UUID;

import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.policy.ResourceType;

/**
 * The ETags the application under test answers, for tests that write a row directly and then need
 * the tag of its version: {@code TestETags.of(ResourceType.FOSTER_HOME, home, 1)}.
 */
public final class TestETags {

    /** The secret {@link TestApplication} configures. */
    public static final String SECRET = "test-etag-secret-of-at-least-32-bytes";

    private static final EntityTags TAGS = new EntityTags(SECRET.getBytes(StandardCharsets.UTF_8));

    private TestETags() {
    }

    public static String of(ResourceType type, UUID id, long rowVersion) {
        return TAGS.of(type, id, rowVersion);
    }

    public static String placement(UUID id, long rowVersion) {
        return of(ResourceType.PLACEMENT, id, rowVersion);
    }

    public static String kinshipOption(UUID id, long rowVersion) {
        return of(ResourceType.KINSHIP_OPTION, id, rowVersion);
    }

    /** The tag of an empty home's version: no ACTIVE placement in it. */
    public static String fosterHome(UUID id, long rowVersion) {
        return fosterHome(id, rowVersion, 0);
    }

    /**
     * The tag of a home's version with this many ACTIVE placements in it, which its body shows (decision 44); an
     * empty home's names its version alone.
     */
    public static String fosterHome(UUID id, long rowVersion, int activePlacements) {
        return activePlacements == 0 ? of(ResourceType.FOSTER_HOME, id, rowVersion)
                : TAGS.of(ResourceType.FOSTER_HOME, id, rowVersion, ByteBuffer.allocate(Long.BYTES).putLong(activePlacements).array());
    }
}
