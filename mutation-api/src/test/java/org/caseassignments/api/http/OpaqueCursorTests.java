package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class OpaqueCursorTests {

    private static final byte[] SECRET = "a secret of at least thirty-two bytes".getBytes(StandardCharsets.UTF_8);
    private static final String LIST = OpaqueCursor.scope("placements", new UUID(0, 7));

    private final OpaqueCursor cursors = new OpaqueCursor(SECRET);

    @Test
    void shouldGiveBackTheFieldsItSealedForTheSameList() {
        Instant at = Instant.parse("2026-03-01T12:00:00.123456Z");
        UUID id = UUID.fromString("6f1c2a4e-0d5b-4c1e-9a3f-1b2c3d4e5f60");

        String cursor = cursors.encode(LIST, OpaqueCursor.micros(at), id);

        assertThat(cursors.decode(LIST, cursor, 2)).contains(List.of(String.valueOf(OpaqueCursor.micros(at)), id.toString()));
        assertThat(OpaqueCursor.fromMicros(cursors.decode(LIST, cursor, 2).orElseThrow().get(0))).isEqualTo(at);
        assertThat(new OpaqueCursor(SECRET).decode(LIST, cursor, 2)).as("another instance with the secret").isPresent();
    }

    @Test
    void shouldShowNeitherTheFieldsNorTheSameTextTwice() {
        UUID id = UUID.fromString("6f1c2a4e-0d5b-4c1e-9a3f-1b2c3d4e5f60");

        String one = cursors.encode(LIST, 1700000000000000L, id);
        String two = cursors.encode(LIST, 1700000000000000L, id);

        String opened = new String(Base64.getUrlDecoder().decode(one), StandardCharsets.ISO_8859_1);
        assertThat(opened).doesNotContain("1700000000000000").doesNotContain(id.toString());
        assertThat(one).isNotEqualTo(two);
    }

    @Test
    void shouldRefuseACursorOfAnotherListOrKeyOrAlteredOrMadeUp() {
        String cursor = cursors.encode(LIST, "a", "b");
        byte[] sealed = Base64.getUrlDecoder().decode(cursor);

        assertThat(cursors.decode(OpaqueCursor.scope("placements", new UUID(0, 8)), cursor, 2)).isEmpty();
        assertThat(cursors.decode(OpaqueCursor.scope("kinship-options", new UUID(0, 7)), cursor, 2)).isEmpty();
        assertThat(new OpaqueCursor("another secret of thirty-two bytes or more".getBytes(StandardCharsets.UTF_8))
                .decode(LIST, cursor, 2)).isEmpty();
        for (int bit = 0; bit < sealed.length * 8; bit++) {
            byte[] altered = sealed.clone();
            altered[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(cursors.decode(LIST, Base64.getUrlEncoder().withoutPadding().encodeToString(altered), 2))
                    .as("bit " + bit).isEmpty();
        }
        assertThat(cursors.decode(LIST, "not base64 !", 1)).isEmpty();
        assertThat(cursors.decode(LIST, "", 1)).isEmpty();
        assertThat(cursors.decode(LIST, Base64.getUrlEncoder().withoutPadding()
                .encodeToString("1700000000000000:42".getBytes(StandardCharsets.US_ASCII)), 2)).isEmpty();
    }

    @Test
    void shouldRefuseAnotherNumberOfFieldsOrAnEmptyOne() {
        assertThat(cursors.decode(LIST, cursors.encode(LIST, "a", "b", "c"), 2)).isEmpty();
        assertThat(cursors.decode(LIST, cursors.encode(LIST, "", "b"), 2)).isEmpty();
        assertThat(cursors.decode(LIST, cursors.encode(LIST, "a", ""), 2)).isEmpty();
    }

    @Test
    void shouldWriteEachPartOfAScopeSoThatNoTwoListsShareOne() {
        assertThat(OpaqueCursor.scope("audit", "a:1", "b")).isNotEqualTo(OpaqueCursor.scope("audit", "a", "1:b"));
        assertThat(OpaqueCursor.scope("audit", null)).isNotEqualTo(OpaqueCursor.scope("audit", "null"));
    }

    @Test
    void shouldRefuseASecretShorterThanTheETagsMinimum() {
        assertThatThrownBy(() -> new OpaqueCursor(new byte[EntityTags.MIN_SECRET_BYTES - 1]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
