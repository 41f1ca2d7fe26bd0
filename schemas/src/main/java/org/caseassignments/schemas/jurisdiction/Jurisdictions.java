package org.caseassignments.schemas.jurisdiction;

import java.util.regex.Pattern;

/**
 * The form of a jurisdiction's name, shared by the events, the database and the rulesets: lower-case
 * ASCII letters, digits, {@code -} and {@code _}, starting with a letter, at most 63 characters
 * ({@code georgia}, {@code navajo-nation}). The database enforces the same pattern with a check
 * constraint, so a name this accepts is always storable.
 */
public final class Jurisdictions {

    public static final int MAX_LENGTH = 63;
    public static final String PATTERN = "^[a-z][a-z0-9_-]{0,62}$";

    private static final Pattern NAME = Pattern.compile(PATTERN);

    private Jurisdictions() {
    }

    public static boolean isValidName(String name) {
        return name != null && NAME.matcher(name).matches();
    }
}
