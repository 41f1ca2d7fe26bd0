package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.caseassignments.api.testsupport.ErrorTable;
import org.junit.jupiter.api.Test;

/** The codes clients branch on, against the reference page that tells them what each means. */
class ProblemCodeTests {

    @Test
    void shouldListEveryCodeWithItsStatusInTheErrorTableOfTheReferencePageAndNoOther() {
        Map<String, Integer> codes = Arrays.stream(ProblemCode.values())
                .collect(Collectors.toMap(Enum::name, code -> code.status().value()));

        assertThat(ErrorTable.statusByCode()).as("docs/mutation-api.md, Errors: code -> status")
                .containsExactlyInAnyOrderEntriesOf(codes);
    }
}
