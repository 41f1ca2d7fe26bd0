package org.caseassignments.api.security;

import java.util.function.Predicate;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The firewall's rules for header names and values, as a loop over the characters instead of the
 * regular expressions {@link StrictHttpFirewall} matches every header against on every request
 * ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, and for values the same plus the tab). Same answers
 * (a test compares them over every code point); the long {@code Authorization} value made the regex
 * one of the larger costs of a request.
 */
final class HeaderCharacters {

    static final Predicate<String> NAMES = name -> assignedAndNotControl(name, false);
    static final Predicate<String> VALUES = value -> assignedAndNotControl(value, true);

    private HeaderCharacters() {
    }

    static StrictHttpFirewall firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(NAMES);
        firewall.setAllowedHeaderValues(VALUES);
        return firewall;
    }

    private static boolean assignedAndNotControl(String text, boolean tabAllowed) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (c >= 0x20 && c < 0x7f) {
                i++;
                continue;
            }
            if (Character.getType(c) == Character.UNASSIGNED || Character.isISOControl(c) && !(tabAllowed && c == '\t')) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}
