package org.caseassignments.api.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The resource as a decision sees it. Built by one builder per resource type, from a stored row or
 * from that row with a request's values applied (the after-image), so both snapshots have the same shape.
 *
 * @param id                null for a resource not created yet
 * @param caseId            null for resources that are not case-scoped
 * @param assignedWorkerSub the case's assigned worker as the row carries it; null while unassigned or unknown
 * @param supervisorSub     the case's supervisor as the row carries it; null while unassigned or unknown
 * @param attrs             policy-visible attributes (strings and booleans): exactly {@link ResourceType#attributes()}
 * @param jurisdiction      the jurisdiction the record belongs to (a case-scoped record's is its case's); null
 *                          while unknown. The engine denies a record of any jurisdiction but the caller's before
 *                          a ruleset runs, so a rule may read it but never needs to.
 */
public record ResourceRef(ResourceType type, UUID id, UUID caseId, String assignedWorkerSub, String supervisorSub,
                          Map<String, Object> attrs, String jurisdiction) {

    public ResourceRef {
        Objects.requireNonNull(type, "type");
        if (!attrs.keySet().equals(type.attributes())) {
            // a builder that drifted from the declared attributes would let a ruleset read a field the lock does not cover
            throw new IllegalArgumentException("a " + type.wireName() + " carries the attributes " + type.attributes()
                    + ", not " + attrs.keySet());
        }
        attrs = Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
    }

    /** The same resource with its id: a create's image once the id is given. */
    public ResourceRef withId(UUID newId) {
        return new ResourceRef(type, newId, caseId, assignedWorkerSub, supervisorSub, attrs, jurisdiction);
    }

    /**
     * Whether {@code other} differs in anything a rule can test besides identity: the assignment pair
     * or an attribute. Only then does an update need its after-image evaluated too.
     */
    public boolean differsInPolicyVisibleInput(ResourceRef other) {
        return !Objects.equals(assignedWorkerSub, other.assignedWorkerSub)
                || !Objects.equals(supervisorSub, other.supervisorSub)
                || !attrs.equals(other.attrs)
                || !Objects.equals(jurisdiction, other.jurisdiction);
    }
}
