package org.caseassignments.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The loop gives the firewall's regex answers, character for character. */
class HeaderCharactersTests {

    @Test
    void shouldAnswerAsTheFirewallsRegexForEveryCodePoint() {
        for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
            String text = "a" + Character.toString(c) + "b";
            assertThat(HeaderCharacters.NAMES.test(text)).as("name with U+%04X", c)
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(text));
            assertThat(HeaderCharacters.VALUES.test(text)).as("value with U+%04X", c)
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(text));
        }
    }

    @Test
    void shouldAnswerAsTheFirewallsRegexForTypicalAndHostileHeaders() {
        for (String text : List.of("", "Authorization", "Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "a\tb", "\t", "a\u0000",
                "x\r\ny: z", "caf\u00e9", "\ud83e\udd8a", "\ud800", "a\udc00b", "\u0085", "\u007f", "\uffff")) {
            assertThat(HeaderCharacters.NAMES.test(text)).as("name %s", text)
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(text));
            assertThat(HeaderCharacters.VALUES.test(text)).as("value %s", text)
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(text));
        }
    }
}
