package org.caseassignments.testkit.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;

import org.caseassignments.lockingsqlfixture.RogueWriter;
import org.junit.jupiter.api.Test;

class ClassConstantsTests {

    @Test
    void shouldReadEveryStringConstantPastWideEntriesAndNoNames() throws IOException {
        // Given a compiled class with a text block, literals, a concatenation, and long and double constants
        try (InputStream classFile = RogueWriter.class.getResourceAsStream("RogueWriter.class")) {

            // When its string constants are read
            var strings = ClassConstants.strings(classFile);

            // Then each is there as compiled (a concatenation's recipe with \u0001 where a value goes), and no name
            assertThat(strings).contains("UPDATE placements SET status = 'ENDED' WHERE id = ?\n",
                    "ALTER TABLE case_assignments_rebuild RENAME TO case_assignments",
                    "DELETE FROM %s WHERE case_id = ?",
                    "SELECT 1 FROM \u0001 WHERE id = ? FOR NO KEY UPDATE");
            assertThat(strings).doesNotContain("hold", "TOUCH", "RogueWriter", "(Ljava/lang/String;)Ljava/lang/String;");
        }
    }

    @Test
    void shouldRefuseWhatIsNotAClassFile() {
        // Given bytes that are not a class file, When they are read, Then it says so
        assertThatThrownBy(() -> ClassConstants.strings("SELECT 1".getBytes()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a class file");
    }
}
