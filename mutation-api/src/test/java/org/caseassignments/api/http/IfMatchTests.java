package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IfMatchTests {

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "*", " * "})
    void shouldRequireAPreconditionThatNamesAVersion(String header) {
        assertThatThrownBy(() -> IfMatch.parse(List.of(header)))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.PRECONDITION_REQUIRED));
    }

    @Test
    void shouldRequireAPreconditionWhenTheHeaderIsAbsent() {
        assertThatThrownBy(() -> IfMatch.parse(List.of()))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.PRECONDITION_REQUIRED));
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "\"7", "7\"", "\"7\" \"8\"", "\"*\", *", "W/7", "w/\"7\"", "\"a b\"", "\"7\";", ","})
    void shouldRefuseAHeaderThatIsNotAListOfEntityTags(String header) {
        assertThatThrownBy(() -> IfMatch.parse(List.of(header)))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.MALFORMED_IF_MATCH));
    }

    @Test
    void shouldMatchAnyListedStrongTagCharacterForCharacter() {
        IfMatch ifMatch = IfMatch.parse(List.of("\"3\" , \"7\",,\"x\""));

        assertThat(ifMatch.matches("\"7\"")).isTrue();
        assertThat(ifMatch.matches("\"3\"")).isTrue();
        assertThat(ifMatch.matches("\"4\"")).isFalse();
        assertThat(IfMatch.parse(List.of("\"07\"")).matches("\"7\"")).isFalse();
        assertThat(IfMatch.parse(List.of("\"abc\"")).matches("\"ABC\"")).isFalse();
        assertThat(IfMatch.parse(List.of("\"abc\"")).matches("\"abcd\"")).isFalse();
    }

    @Test
    void shouldNeverMatchAWeakTag() {
        assertThat(IfMatch.parse(List.of("W/\"7\"")).matches("\"7\"")).isFalse();
        assertThat(IfMatch.parse(List.of("W/\"7\", \"7\"")).matches("\"7\"")).isTrue();
    }

    @Test
    void shouldJoinAListSpreadOverSeveralHeaderLines() {
        IfMatch ifMatch = IfMatch.parse(List.of("\"1\"", "\"2\""));

        assertThat(ifMatch.matches("\"2\"")).isTrue();
    }

    @Test
    void shouldFailThePreconditionWith412() {
        assertThatThrownBy(() -> IfMatch.parse(List.of("\"1\"")).require("\"2\"", "Placement x"))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.PRECONDITION_FAILED));
    }

    @Test
    void shouldMatchTheTagsEntityTagsIssue() {
        EntityTags etags = new EntityTags("x".repeat(EntityTags.MIN_SECRET_BYTES).getBytes());
        String tag = etags.of(ResourceType.PLACEMENT, UUID.randomUUID(), 7);

        assertThat(IfMatch.parse(List.of("\"1\", " + tag)).matches(tag)).isTrue();
        assertThat(IfMatch.parse(List.of("W/" + tag)).matches(tag)).isFalse();
    }
}
