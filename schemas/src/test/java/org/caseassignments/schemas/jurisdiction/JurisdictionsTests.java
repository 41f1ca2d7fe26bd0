package org.caseassignments.schemas.jurisdiction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class JurisdictionsTests {

    @Test
    void shouldAcceptNamesOfTheDocumentedFormAndNothingElse() {
        assertThat(Jurisdictions.isValidName("georgia")).isTrue();
        assertThat(Jurisdictions.isValidName("navajo-nation")).isTrue();
        assertThat(Jurisdictions.isValidName("a" + "_9".repeat(31))).isTrue();
        for (String bad : new String[] {null, "", "Georgia", "9lives", "-x", "geo rgia", "geörgia", "a".repeat(64),
                "georgia\u0000", "georgia\n"}) {
            assertThat(Jurisdictions.isValidName(bad)).as(String.valueOf(bad)).isFalse();
        }
    }

    @Test
    void shouldDecideExactlyAsThePatternTheDatabaseChecks() {
        Pattern pattern = Pattern.compile(Jurisdictions.PATTERN);
        String alphabet = "az09_-Z ./\u00e9\u0000";
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int i = 0; i < 100_000; i++) {
            StringBuilder name = new StringBuilder();
            int length = random.nextInt(66);
            for (int j = 0; j < length; j++) {
                name.append(random.nextInt(4) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : (char) ('a' + random.nextInt(26)));
            }
            String candidate = name.toString();
            assertThat(Jurisdictions.isValidName(candidate)).as("seed %d, name '%s'", seed, candidate)
                    .isEqualTo(pattern.matcher(candidate).matches());
        }
    }
}
