package org.caseassignments.api.policy;

import java.util.Set;

import dev.cel.runtime.CelRuntime;

/**
 * One allow rule: it applies to the listed resource types and actions, and allows when its compiled
 * condition evaluates to {@code true}.
 *
 * @param reads the resource fields its condition reads, every one lockable for each of its resource types
 */
record Rule(String id, Set<ResourceType> resources, Set<Action> actions, String condition,
            CelRuntime.Program program, Set<ResourceField> reads) {

    boolean appliesTo(ResourceType type, Action action) {
        return resources.contains(type) && actions.contains(action);
    }
}
