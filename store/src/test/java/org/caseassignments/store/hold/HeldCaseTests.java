package org.caseassignments.store.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.junit.jupiter.api.Test;

class HeldCaseTests {

    private static final UUID ROW = UUID.fromString("6f1c0000-0000-0000-0000-000000000001");
    private static final UUID CASE = UUID.fromString("6f1c0000-0000-0000-0000-0000000000c1");

    @Test
    void shouldGiveTheHeldRowToALockOfItsOwnTable() {
        // Given the case of a placement, held
        HeldCase held = HeldCase.ofRow(CaseScopedTable.PLACEMENTS, ROW, "trace-1");

        // When the placement's locked read asks which row to lock
        // Then it is the row whose case is held
        assertThat(held.rowId(CaseScopedTable.PLACEMENTS)).isEqualTo(ROW);
        assertThat(held.traceId()).isEqualTo("trace-1");
    }

    @Test
    void shouldRefuseTheHeldRowToALockOfAnotherTableWhenTheHoldIsOfARowOfOneTable() {
        // Given the case of a placement, held
        HeldCase held = HeldCase.ofRow(CaseScopedTable.PLACEMENTS, ROW, null);

        // When a kinship option's locked read takes that hold
        // Then it is refused: that row's case is not the one held
        assertThatThrownBy(() -> held.rowId(CaseScopedTable.KINSHIP_OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placements").hasMessageContaining("kinship_options");
    }

    @Test
    void shouldGiveTheHeldCaseToAnInsertWhenTheHoldIsOfTheCaseByItsId() {
        // Given a case, held by its id (a create's hold)
        HeldCase held = HeldCase.ofCase(CASE, "trace-2");

        // When an insert into the case asks which case it inserts into
        // Then it is the case held
        assertThat(held.caseId()).isEqualTo(CASE);
        assertThat(held.traceId()).isEqualTo("trace-2");
    }

    @Test
    void shouldRefuseARowToAWriteWhenTheHoldIsOfACaseByItsId() {
        // Given a case, held by its id (a create's hold)
        HeldCase held = HeldCase.ofCase(CASE, null);

        // When a row's update takes that hold
        // Then it is refused: no row's case was held
        assertThatThrownBy(() -> held.rowId(CaseScopedTable.PLACEMENTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CaseHold.ofRow");
    }

    @Test
    void shouldRefuseACaseToAnInsertWhenTheHoldIsOfARow() {
        // Given the case of a kinship option, held for the row
        HeldCase held = HeldCase.ofRow(CaseScopedTable.KINSHIP_OPTIONS, ROW, null);

        // When an insert takes that hold
        // Then it is refused: the hold does not know the case by its id
        assertThatThrownBy(held::caseId)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CaseHold.forShare");
    }
}
