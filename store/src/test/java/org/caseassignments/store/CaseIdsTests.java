package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class CaseIdsTests {

    @Test
    void shouldOrderCaseIdsAsPostgresqlOrdersUuidsByteByByteUnsigned() {
        List<UUID> ids = new ArrayList<>(List.of(
                UUID.fromString("ffffffff-0000-0000-0000-000000000000"),
                UUID.fromString("80000000-0000-0000-0000-000000000000"),
                UUID.fromString("7fffffff-ffff-ffff-ffff-ffffffffffff"),
                UUID.fromString("00000000-0000-0000-8000-000000000000"),
                UUID.fromString("00000000-0000-0000-7fff-ffffffffffff"),
                UUID.fromString("00000000-0000-0000-0000-000000000000")));

        ids.sort(CaseIds.POSTGRES_ORDER);

        assertThat(ids).extracting(UUID::toString).isSorted();
    }

    @Test
    void shouldTakeOnlyTheCanonicalFormInEitherCaseAsACaseId() {
        UUID id = UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
        assertThat(CaseIds.parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")).isEqualTo(id);
        assertThat(CaseIds.parse("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")).isEqualTo(id);
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            UUID any = new UUID(random.nextLong(), random.nextLong());
            assertThat(CaseIds.parse(any.toString())).isEqualTo(any);
        }

        assertThat(CaseIds.parse("+f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")).as("a sign").isNull();
        assertThat(CaseIds.parse("\u0660f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
                .as("a non-ASCII digit").isNull();
        assertThat(CaseIds.parse("0f1e2d3c4-b5a-6978-8796-a5b4c3d2e1f0")).as("a hyphen out of place").isNull();
        assertThat(CaseIds.parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1g0")).as("not hex").isNull();
        assertThat(CaseIds.parse("{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}")).as("braces").isNull();
        assertThat(CaseIds.parse("")).isNull();
    }

    @Test
    void shouldTakeOnlyTheLowerCaseCanonicalFormAsAKey() {
        UUID id = UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
        assertThat(CaseIds.parseKey("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0".getBytes(StandardCharsets.UTF_8))).isEqualTo(id);
        assertThat(CaseIds.parseKey("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(CaseIds.parseKey("1-2-3-4-5".getBytes(StandardCharsets.UTF_8))).isNull();
    }
}
