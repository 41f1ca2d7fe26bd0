package org.caseassignments.schemas.jurisdiction;

/**
 * The form of a jurisdiction's name, shared by the events, the database and the rulesets: lower-case
 * ASCII letters, digits, {@code -} and {@code _}, starting with a letter, at most 63 characters
 * ({@code georgia}, {@code navajo-nation}). The database enforces the same pattern with a check
 * constraint, so a name this accepts is always storable.
 */
public final class Jurisdictions {

    public static final int MAX_LENGTH = 63;
    /** The same rule as a regular expression, for messages and the database's check constraint. */
    public static final String PATTERN = "^[a-z][a-z0-9_-]{0,62}$";

    private Jurisdictions() {
    }

    /** Checked per event on the projector's path, so a loop over the characters rather than a regex matcher. */
    public static boolean isValidName(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH || !isLetter(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isLetter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '_') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z';
    }
}
