package org.caseassignments.store;

/**
 * The one check of a subject (an {@code assigned_worker_sub} or {@code supervisor_sub}) before it
 * reaches PostgreSQL, shared by the projector's decoder and the backfill's snapshot rows: a value
 * the database would refuse (a NUL character, SQLSTATE 22021) or that is not text (an unpaired
 * surrogate cannot be encoded as UTF-8) must be refused as bad input up front, not fail a whole batch.
 * The length bound is this service's contract, not PostgreSQL's ({@code text} holds up to 1 GB): a
 * subject is an identity provider's user id, and an unbounded one would let one record bloat every
 * row and log line that copies it.
 */
public final class StorableText {

    /** The longest subject accepted, in characters (code points). */
    public static final int MAX_SUBJECT_LENGTH = 255;

    /** Every refusal of this check carries this reason code (dead letters and backfill rejects alike). */
    public static final String INVALID_TEXT = "INVALID_TEXT";

    private StorableText() {
    }

    /**
     * What is wrong with {@code value} as the subject column {@code column}, or null when it can be
     * stored (null, meaning none, can). Nothing is allocated for a good value.
     */
    public static String subjectProblem(String column, String value) {
        if (value == null) {
            return null;
        }
        String problem = textProblem(value);
        if (problem != null) {
            return column + " " + problem;
        }
        int codePoints = value.codePointCount(0, value.length());
        if (codePoints > MAX_SUBJECT_LENGTH) {
            return column + " is " + codePoints + " characters long; a subject has at most " + MAX_SUBJECT_LENGTH;
        }
        return null;
    }

    /**
     * What makes {@code value} text PostgreSQL cannot store, whatever its column — "contains a NUL
     * character (U+0000) at index 3, which PostgreSQL cannot store" — or null when it can (null can).
     * No length bound: each column sets its own. Also the mutation API's check of every text field.
     */
    public static String textProblem(String value) {
        if (value == null) {
            return null;
        }
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == '\0') {
                return "contains a NUL character (U+0000) at index " + i + ", which PostgreSQL cannot store";
            }
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return "contains an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase()
                        + ") at index " + i + ": it is not Unicode text and has no UTF-8 encoding";
            }
        }
        return null;
    }
}
