package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.junit.jupiter.api.Test;

class EntityTagsTests {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER_SECRET = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);

    private final EntityTags etags = new EntityTags(SECRET);
    private final UUID id = UUID.fromString("6f1c0e6a-5b1d-4c57-9d3e-0d6b8f2a1c11");

    @Test
    void shouldBeAQuotedStrongTagOf128BitsInBase64Url() {
        String tag = etags.of(ResourceType.PLACEMENT, id, 7);

        assertThat(tag).matches("\"[A-Za-z0-9_-]{22}\"");
        assertThat(IfMatch.parse(List.of(tag)).matches(tag)).as("a tag is a valid If-Match").isTrue();
    }

    @Test
    void shouldBeTheSameForTheSameVersionOfTheSameResourceUnderTheSameSecret() {
        assertThat(new EntityTags(SECRET.clone()).of(ResourceType.PLACEMENT, id, 7))
                .isEqualTo(etags.of(ResourceType.PLACEMENT, id, 7))
                .isEqualTo(etags.of(new ResourceRef(ResourceType.PLACEMENT, id, null, null, null, Map.of("status", "PROPOSED"), "georgia"), 7, new byte[0]));
    }

    @Test
    void shouldDifferWithTheTypeTheIdTheVersionTheDerivedStateOrTheSecret() {
        Set<String> tags = new HashSet<>();
        for (ResourceType type : ResourceType.values()) {
            tags.add(etags.of(type, id, 7));
        }
        tags.add(etags.of(ResourceType.PLACEMENT, UUID.randomUUID(), 7));
        tags.add(etags.of(ResourceType.PLACEMENT, new UUID(id.getLeastSignificantBits(), id.getMostSignificantBits()), 7));
        tags.add(etags.of(ResourceType.PLACEMENT, id, 8));
        tags.add(etags.of(ResourceType.PLACEMENT, id, -7));
        tags.add(new EntityTags(OTHER_SECRET).of(ResourceType.PLACEMENT, id, 7));
        tags.add(etags.of(ResourceType.FOSTER_HOME, id, 7, new byte[] {1}));
        tags.add(etags.of(ResourceType.FOSTER_HOME, id, 7, new byte[] {2}));

        assertThat(tags).hasSize(ResourceType.values().length + 7);
    }

    /** An empty home, and a row whose copy is its projection's assignment, keep the tag of before V15 (decision 44). */
    @Test
    void shouldBeTheTagOfTheVersionAloneWhenNothingIsDerived() {
        assertThat(etags.of(ResourceType.FOSTER_HOME, id, 7, new byte[0]))
                .isEqualTo(etags.of(ResourceType.FOSTER_HOME, id, 7));
    }

    @Test
    void shouldNeverMatchATagOfAnotherResourceOrAnotherVersion() {
        String current = etags.of(ResourceType.FOSTER_HOME, id, 2);
        IfMatch everythingElse = IfMatch.parse(List.of(String.join(", ",
                etags.of(ResourceType.FOSTER_HOME, id, 1),
                etags.of(ResourceType.FOSTER_HOME, id, 3),
                etags.of(ResourceType.FOSTER_HOME, UUID.randomUUID(), 2),
                etags.of(ResourceType.PLACEMENT, id, 2),
                new EntityTags(OTHER_SECRET).of(ResourceType.FOSTER_HOME, id, 2),
                "\"1\"", "\"2\"", "\"3\"")));

        assertThat(everythingElse.matches(current)).isFalse();
        assertThatThrownBy(() -> everythingElse.require(current, "Foster home " + id))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.PRECONDITION_FAILED));
    }

    @Test
    void shouldRefuseASecretShorterThan32Bytes() {
        assertThatThrownBy(() -> new EntityTags(new byte[31])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> new EntityTags(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldHaveNoTagForAResourceNotStoredYet() {
        assertThatThrownBy(() -> etags.of(ResourceType.PLACEMENT, null, 1)).isInstanceOf(NullPointerException.class);
    }
}
