package org.caseassignments.api.policy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a caller wants to do. Deleting a kinship option is authorized as {@link #UPDATE}. */
public enum Action {
    READ, CREATE, UPDATE;

    /** The name rulesets and the {@code action} variable use: {@code read}, {@code create}, {@code update}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Action> fromWireName(String name) {
        return Arrays.stream(values()).filter(action -> action.wireName().equals(name)).findFirst();
    }
}
