package org.caseassignments.store.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.junit.jupiter.api.Test;

class HeldCaseTests {

    private static final UUID ROW = UUID.fromString("6f1c0000-0000-0000-0000-000000000001");

    @Test
    void shouldGiveTheHeldRowToALockOfItsOwnTable() {
        // Given the case of a placement, held
        HeldCase held = new HeldCase(CaseScopedTable.PLACEMENTS, ROW, "trace-1");

        // When the placement's locked read asks which row to lock
        // Then it is the row whose case is held
        assertThat(held.rowId(CaseScopedTable.PLACEMENTS)).isEqualTo(ROW);
        assertThat(held.traceId()).isEqualTo("trace-1");
    }

    @Test
    void shouldRefuseTheHeldRowToALockOfAnotherTableWhenTheHoldIsOfARowOfOneTable() {
        // Given the case of a placement, held
        HeldCase held = new HeldCase(CaseScopedTable.PLACEMENTS, ROW, null);

        // When a kinship option's locked read takes that hold
        // Then it is refused: that row's case is not the one held
        assertThatThrownBy(() -> held.rowId(CaseScopedTable.KINSHIP_OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placements").hasMessageContaining("kinship_options");
    }
}
