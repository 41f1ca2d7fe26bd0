package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.junit.jupiter.api.Test;

class CaseScopedResourceTests {

    @Test
    void shouldMapEachResourceAtTheConstantsItsControllerIsMappedBy() {
        // Given the constants the controllers' annotations name, which must be compile-time constants
        Map<CaseScopedResource, String[]> constants = Map.of(
                CaseScopedResource.PLACEMENTS, new String[] {CaseScopedResource.PLACEMENTS_OF_CASE,
                        CaseScopedResource.PLACEMENT},
                CaseScopedResource.KINSHIP_OPTIONS, new String[] {CaseScopedResource.KINSHIP_OPTIONS_OF_CASE,
                        CaseScopedResource.KINSHIP_OPTION});

        // When each resource says where it is mapped / Then it is there, and nothing else is
        assertThat(constants.keySet()).containsExactlyInAnyOrder(CaseScopedResource.values());
        constants.forEach((resource, mapped) -> {
            assertThat(resource.ofCase()).isEqualTo(mapped[0]);
            assertThat(resource.record()).isEqualTo(mapped[1]);
            assertThat(CaseScopedResource.mappedAt(mapped[0])).contains(resource);
            assertThat(CaseScopedResource.mappedAt(mapped[1])).contains(resource);
        });
        assertThat(CaseScopedResource.PLACEMENTS.location(new UUID(0, 7)))
                .hasToString("/placements/00000000-0000-0000-0000-000000000007");
        assertThat(CaseScopedResource.mappedAt("/foster-homes/{id}")).isEmpty();
        assertThat(CaseScopedResource.mappedAt("/foster-homes/{id}/placements")).isEmpty();
        assertThat(CaseScopedResource.mappedAt("/cases/{caseId}/assignment")).isEmpty();
    }

    @Test
    void shouldBeOneResourceForEachCaseScopedTableOfTheLockOrder() {
        // Given the tables whose rows a write holds the case for / When each resource names its table
        // Then the resources are those tables, each once
        assertThat(Arrays.stream(CaseScopedResource.values()).map(CaseScopedResource::table))
                .containsExactlyInAnyOrder(CaseScopedTable.values());
    }

    @Test
    void shouldNameThemAllInWordsForAnAnswer() {
        assertThat(CaseScopedResource.inWords()).isEqualTo("placements and kinship options");
    }
}
