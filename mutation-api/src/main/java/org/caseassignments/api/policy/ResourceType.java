package org.caseassignments.api.policy;

import java.util.Arrays;
import java.util.Optional;

/** The kinds of resource a ruleset speaks about, by the name {@code resource.type} carries. */
public enum ResourceType {
    PLACEMENT("placement"), KINSHIP_OPTION("kinship_option"), FOSTER_HOME("foster_home"),
    /** A case's projection row, as {@code GET /cases/{caseId}/assignment} serves it; read only. */
    CASE_ASSIGNMENT("case_assignment");

    private final String wireName;

    ResourceType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static Optional<ResourceType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }
}
