package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class OpaqueCursorTests {

    @Test
    void shouldEncodeAsTheCursorsClientsAlreadyHold() {
        // base64url("r7") and base64url("1700000000000000:42"), as each feature encoded its own before
        assertThat(OpaqueCursor.encode("r7")).isEqualTo("cjc");
        assertThat(OpaqueCursor.encode(1700000000000000L, 42)).isEqualTo("MTcwMDAwMDAwMDAwMDAwMDo0Mg");
    }

    @Test
    void shouldGiveBackTheFieldsItEncoded() {
        Instant at = Instant.parse("2026-03-01T12:00:00.123456Z");
        UUID id = UUID.fromString("6f1c2a4e-0d5b-4c1e-9a3f-1b2c3d4e5f60");

        String cursor = OpaqueCursor.encode(OpaqueCursor.micros(at), id);

        assertThat(OpaqueCursor.decode(cursor, 2)).contains(List.of(String.valueOf(OpaqueCursor.micros(at)), id.toString()));
        assertThat(OpaqueCursor.fromMicros(OpaqueCursor.decode(cursor, 2).orElseThrow().get(0))).isEqualTo(at);
    }

    @Test
    void shouldRefuseTextItDidNotHandOut() {
        assertThat(OpaqueCursor.decode("not base64 !", 1)).isEmpty();
        assertThat(OpaqueCursor.decode(OpaqueCursor.encode("a", "b", "c"), 2)).isEmpty();
        assertThat(OpaqueCursor.decode(OpaqueCursor.encode("", "b"), 2)).isEmpty();
        assertThat(OpaqueCursor.decode(OpaqueCursor.encode("a", ""), 2)).isEmpty();
    }
}
