package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.policy.ResourceRef;
import org.junit.jupiter.api.Test;

/**
 * The filter that holds a write for the projection refuses to start unless each case-scoped resource has exactly one
 * {@link HeldWrites}: a resource without one could not have its writes held, and two for one would leave which is
 * asked to chance.
 */
class ProjectionWaitFilterHeldWritesTests {

    /** Writes of a resource that finds no record: what is checked at start is only which resource they are of. */
    private record Held(CaseScopedResource resource) implements HeldWrites {
        @Override
        public Optional<ResourceRef> current(UUID id) {
            return Optional.empty();
        }
    }

    private static ProjectionWaitFilter filter(List<HeldWrites> held) {
        return new ProjectionWaitFilter(null, null, held, null, Duration.ofSeconds(5), null);
    }

    @Test
    void shouldStartWhenEachCaseScopedResourceHasOneHeldWrites() {
        // Given one HeldWrites for each case-scoped resource
        List<HeldWrites> held = Arrays.stream(CaseScopedResource.values()).<HeldWrites>map(Held::new).toList();

        // When the filter is built / Then it starts
        assertThatCode(() -> filter(held)).doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseToStartWhenACaseScopedResourceHasNoHeldWrites() {
        // Given only the placements' HeldWrites, the kinship options' missing
        List<HeldWrites> held = List.of(new Held(CaseScopedResource.PLACEMENTS));

        // When the filter is built / Then it refuses, naming what it was given
        assertThatThrownBy(() -> filter(held)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs exactly one HeldWrites").hasMessageContaining("given: [PLACEMENTS]");
    }

    @Test
    void shouldRefuseToStartWhenACaseScopedResourceHasTwoHeldWrites() {
        // Given two HeldWrites for placements (and so, with one per resource expected, as many as there are resources)
        List<HeldWrites> held = List.of(new Held(CaseScopedResource.PLACEMENTS),
                new Held(CaseScopedResource.PLACEMENTS));

        // When the filter is built / Then it refuses
        assertThatThrownBy(() -> filter(held)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("given: [PLACEMENTS, PLACEMENTS]");
    }
}
