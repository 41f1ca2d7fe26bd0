package org.caseassignments.api.policy;

import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the service can re-read under the row lock of each resource type, and so compare between the
 * authorized image and the locked row: every top-level field and the type's declared attributes. A
 * condition that reads anything else is refused at load (ADR-060 D5, enforced rather than reviewed).
 */
record LockableFields(Map<ResourceType, Set<ResourceField>> byType) {

    /** What this build re-reads: the images the feature builders make from locked rows. */
    static final LockableFields SERVICE = service();

    LockableFields {
        Map<ResourceType, Set<ResourceField>> copy = new EnumMap<>(ResourceType.class);
        byType.forEach((type, fields) -> copy.put(type, Set.copyOf(fields)));
        byType = Map.copyOf(copy);
    }

    Set<ResourceField> of(ResourceType type) {
        return byType.getOrDefault(type, Set.of());
    }

    /** The same, with one more attribute of {@code type} lockable (for a build that re-reads it). */
    LockableFields withAttribute(ResourceType type, String key) {
        Map<ResourceType, Set<ResourceField>> next = new EnumMap<>(byType);
        Set<ResourceField> fields = new LinkedHashSet<>(of(type));
        fields.add(ResourceField.attribute(key));
        next.put(type, fields);
        return new LockableFields(next);
    }

    private static LockableFields service() {
        Map<ResourceType, Set<ResourceField>> byType = new EnumMap<>(ResourceType.class);
        for (ResourceType type : ResourceType.values()) {
            Set<ResourceField> fields = new LinkedHashSet<>(ResourceField.topLevelFields());
            type.attributes().forEach(key -> fields.add(ResourceField.attribute(key)));
            byType.put(type, fields);
        }
        return new LockableFields(byType);
    }
}
