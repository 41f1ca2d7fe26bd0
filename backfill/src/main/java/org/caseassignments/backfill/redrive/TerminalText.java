package org.caseassignments.backfill.redrive;

import java.nio.charset.StandardCharsets;

/**
 * A field of a dead letter made safe to print on a terminal: C0 and C1 controls, DEL and the bidirectional controls
 * become a backslash, u and four hex digits, so a key cannot clear the screen, move the cursor or reverse the text after it; a field longer
 * than {@link #MAX_BYTES} of UTF-8 is cut there and says how many bytes it left out.
 */
final class TerminalText {

    static final int MAX_BYTES = 2_048;

    private TerminalText() {
    }

    static String of(String field) {
        StringBuilder printed = new StringBuilder(Math.min(field.length(), MAX_BYTES) + 16);
        int bytes = 0;
        for (int i = 0; i < field.length(); ) {
            int c = field.codePointAt(i);
            int size = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > MAX_BYTES) {
                int left = field.substring(i).getBytes(StandardCharsets.UTF_8).length;
                return printed.append(String.format("… %,d bytes more", left)).toString();
            }
            bytes += size;
            if (control(c)) {
                printed.append(String.format("\\u%04X", c));
            } else {
                printed.appendCodePoint(c);
            }
            i += Character.charCount(c);
        }
        return printed.toString();
    }

    private static boolean control(int c) {
        return c < 0x20 || c >= 0x7F && c < 0xA0 || c == 0x061C || c == 0x200E || c == 0x200F
                || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069 || Character.isSurrogate((char) c) && c <= 0xFFFF;
    }
}
