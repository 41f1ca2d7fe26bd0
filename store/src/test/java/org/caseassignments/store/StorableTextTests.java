package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StorableTextTests {

    @Test
    void shouldAcceptNoneAnEmptySubjectAndAnyUnicodeUpToTheMaximumInCodePoints() {
        String emoji = "\uD83D\uDE00";

        assertThat(StorableText.subjectProblem("assigned_worker_sub", null)).isNull();
        assertThat(StorableText.subjectProblem("assigned_worker_sub", "")).isNull();
        assertThat(StorableText.subjectProblem("assigned_worker_sub", "auth0|5f1c-ü-\uFFFD")).isNull();
        assertThat(StorableText.subjectProblem("supervisor_sub", emoji.repeat(StorableText.MAX_SUBJECT_LENGTH)))
                .as("255 code points in 510 chars").isNull();
    }

    @Test
    void shouldRefuseANulCharacterWithItsColumnAndPosition() {
        assertThat(StorableText.subjectProblem("assigned_worker_sub", "w\0rker"))
                .isEqualTo("assigned_worker_sub contains a NUL character (U+0000) at index 1, which PostgreSQL cannot store");
    }

    @Test
    void shouldRefuseAnUnpairedSurrogateWhereverItIs() {
        assertThat(StorableText.subjectProblem("supervisor_sub", "ab\uD800")).contains("unpaired surrogate (U+D800) at index 2");
        assertThat(StorableText.subjectProblem("supervisor_sub", "\uDC00ab")).contains("unpaired surrogate (U+DC00) at index 0");
        assertThat(StorableText.subjectProblem("supervisor_sub", "a\uD800b")).contains("at index 1");
        assertThat(StorableText.subjectProblem("supervisor_sub", "\uDE00\uD83D")).contains("at index 0");
    }

    @Test
    void shouldRefuseASubjectLongerThanTheMaximum() {
        assertThat(StorableText.subjectProblem("supervisor_sub", "s".repeat(StorableText.MAX_SUBJECT_LENGTH + 1)))
                .isEqualTo("supervisor_sub is 256 characters long; a subject has at most 255");
    }

    @Test
    void shouldCheckAnyTextForWhatPostgresqlCannotStoreWithoutALengthBound() {
        assertThat(StorableText.textProblem(null)).isNull();
        assertThat(StorableText.textProblem("x".repeat(10_000) + "\uD83C\uDF33\t")).isNull();
        assertThat(StorableText.textProblem("a\0b"))
                .isEqualTo("contains a NUL character (U+0000) at index 1, which PostgreSQL cannot store");
        assertThat(StorableText.textProblem("ab\uDC00")).contains("unpaired surrogate (U+DC00) at index 2");
    }
}
