package org.caseassignments.backfill.assignments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class BatchWindowTests {

    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);
    private static final UUID C = new UUID(0, 3);
    private static final UUID D = new UUID(0, 4);

    @Test
    void batchesOfDisjointCasesJoinUntilTheWindowIsFull() {
        BatchWindow<String> window = new BatchWindow<>(2);
        assertThat(window.mustWait(List.of(A, B))).isFalse();
        window.add(List.of(A, B), "first");
        assertThat(window.mustWait(List.of(C))).isFalse();
        window.add(List.of(C), "second");
        assertThat(window.mustWait(List.of(D))).as("full").isTrue();
        assertThat(window.removeOldest()).isEqualTo("first");
        assertThat(window.mustWait(List.of(D))).isFalse();
    }

    @Test
    void aBatchSharingACaseWithAnyBatchInTheWindowWaitsUntilThatBatchLeaves() {
        BatchWindow<String> window = new BatchWindow<>(3);
        window.add(List.of(A), "first");
        window.add(List.of(B, C), "second");
        assertThat(window.mustWait(List.of(D, C))).isTrue();
        assertThatThrownBy(() -> window.add(List.of(D, C), "third")).isInstanceOf(IllegalStateException.class);
        assertThat(window.removeOldest()).isEqualTo("first");
        assertThat(window.mustWait(List.of(D, C))).as("the second batch still holds C").isTrue();
        assertThat(window.mustWait(List.of(A, D))).as("A left with the first batch").isFalse();
        assertThat(window.removeOldest()).isEqualTo("second");
        assertThat(window.isEmpty()).isTrue();
        assertThat(window.mustWait(List.of(D, C))).isFalse();
    }

    @Test
    void aWindowOfOneWritesOneBatchAtATime() {
        BatchWindow<String> window = new BatchWindow<>(1);
        window.add(List.of(A), "first");
        assertThat(window.mustWait(List.of(B))).isTrue();
        assertThatThrownBy(() -> new BatchWindow<String>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
