package org.caseassignments.store.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.kinship.KinshipOptionRows;
import org.caseassignments.store.placement.PlacementRows;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class CaseHoldTests {

    private static final UUID ID = UUID.fromString("6f1c0000-0000-0000-0000-000000000002");

    @Test
    void shouldRefuseToHoldARowsCaseWhenThereIsNoTransaction() {
        // Given no transaction: each statement commits alone, so its locks end with it
        CaseHold hold = new CaseHold(new JdbcTemplate());

        // When a write asks for the hold of a row's case
        // Then it is refused before any statement is sent: nothing would be held
        assertThatThrownBy(() -> hold.ofRow(CaseScopedTable.PLACEMENTS, ID))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no transaction");
    }

    @Test
    void shouldRefuseToHoldACaseForShareWhenThereIsNoTransaction() {
        // Given no transaction
        CaseHold hold = new CaseHold(new JdbcTemplate());

        // When a create asks for the hold of its case
        // Then it is refused before any statement is sent
        assertThatThrownBy(() -> hold.forShare(ID, null, (rs, held) -> held))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no transaction");
    }

    @Test
    void shouldTakeTheHeldCaseInEveryLockAndWriteOfACaseScopedRow() {
        // Given the operations on the case-scoped tables
        List<Method> operations = Arrays.stream(new Class<?>[] {PlacementRows.class, KinshipOptionRows.class})
                .flatMap(type -> Arrays.stream(type.getDeclaredMethods()))
                .filter(method -> Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers()))
                .toList();
        assertThat(operations).isNotEmpty();

        // When their parameters are read
        // Then each takes the hold of its case, so none can run before the case is held
        assertThat(operations).allSatisfy(method -> assertThat(method.getParameterTypes())
                .as(method.getDeclaringClass().getSimpleName() + "." + method.getName())
                .contains(HeldCase.class));
    }
}
