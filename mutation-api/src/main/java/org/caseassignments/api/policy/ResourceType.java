package org.caseassignments.api.policy;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * The kinds of resource a ruleset speaks about, by the name {@code resource.type} carries, each with
 * the {@code attrs} keys its one builder fills from the row. Those attributes, with the top-level
 * fields, are what the update path re-reads under the row lock and compares; a ruleset can read no
 * other (see {@link LockableFields}). Adding an attribute here and to the builder is what makes it
 * readable by rulesets.
 */
public enum ResourceType {
    PLACEMENT("placement", Set.of("status")),
    KINSHIP_OPTION("kinship_option", Set.of("approved")),
    FOSTER_HOME("foster_home", Set.of("admin_unit", "license_status")),
    /** A case's projection row, as {@code GET /cases/{caseId}/assignment} serves it; read only. */
    CASE_ASSIGNMENT("case_assignment", Set.of()),
    /** The audit trail of one jurisdiction, as {@code GET /audit} serves it; read only, never a single record. */
    AUDIT_RECORD("audit_record", Set.of());

    private final String wireName;
    private final Set<String> attributes;

    ResourceType(String wireName, Set<String> attributes) {
        this.wireName = wireName;
        this.attributes = attributes;
    }

    public String wireName() {
        return wireName;
    }

    /** The {@code attrs} keys every image of this type carries. */
    public Set<String> attributes() {
        return attributes;
    }

    static Optional<ResourceType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }
}
