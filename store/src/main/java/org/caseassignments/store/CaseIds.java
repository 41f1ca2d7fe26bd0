package org.caseassignments.store;

import java.util.Comparator;
import java.util.UUID;

/**
 * The one parser of case ids, for every input (events, their keys, snapshot rows): only the canonical
 * 36-character form, parsed in one pass. {@link UUID#fromString} also takes short forms such as
 * {@code 1-2-3-4-5}, and signs or non-ASCII digits in its fallback parser.
 */
public final class CaseIds {

    /**
     * Case ids in PostgreSQL's {@code uuid} order: its sixteen bytes compared unsigned, where {@link UUID#compareTo}
     * compares each half signed.
     */
    public static final Comparator<UUID> POSTGRESQL_ORDER = Comparator
            .comparing(UUID::getMostSignificantBits, Long::compareUnsigned)
            .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned);

    private CaseIds() {
    }

    /**
     * The case id if {@code value} is a UUID in canonical form (36 characters: hex digits of either case,
     * hyphens at 8, 13, 18 and 23), else null.
     */
    public static UUID parse(String value) {
        return value == null || value.length() != 36 ? null : parse(null, value, false);
    }

    /**
     * The case id if {@code key} is the UTF-8 of a UUID in canonical form with lower-case hex digits (as
     * {@link UUID#toString()} writes it), else null. Only one spelling per case: keys that differ in case
     * hash to different partitions.
     */
    public static UUID parseKey(byte[] key) {
        return key.length != 36 ? null : parse(key, null, true);
    }

    /** One parser for both: reads {@code bytes} when given, else {@code text}; both are 36 long. */
    private static UUID parse(byte[] bytes, String text, boolean lowerCaseOnly) {
        long high = 0;
        long low = 0;
        int digits = 0;
        for (int i = 0; i < 36; i++) {
            int c = bytes != null ? bytes[i] & 0xFF : text.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int digit = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' && !lowerCaseOnly ? c - 'A' + 10
                    : -1;
            if (digit < 0) {
                return null;
            }
            if (digits++ < 16) {
                high = high << 4 | digit;
            } else {
                low = low << 4 | digit;
            }
        }
        return new UUID(high, low);
    }
}
