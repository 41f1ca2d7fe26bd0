package org.caseassignments.api.http;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one encoding of every cursor the API hands out (a case's list, the audit, a case's history): the cursor's
 * fields joined by {@code :}, in URL-safe base64 without padding. Clients send {@code next_cursor} back as given;
 * the type that holds a cursor's fields says what they are and which values it accepts, and refuses the rest.
 */
public final class OpaqueCursor {

    private static final String SEPARATOR = ":";

    private OpaqueCursor() {
    }

    /** The cursor of these fields, each written as {@link String#valueOf}. */
    public static String encode(Object... fields) {
        String plain = Arrays.stream(fields).map(String::valueOf).collect(Collectors.joining(SEPARATOR));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /** The cursor's fields; empty for text that is not base64, or has another number of fields, or an empty one. */
    public static Optional<List<String>> decode(String text, int fields) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
            List<String> parts = List.of(plain.split(SEPARATOR, -1));
            return parts.size() == fields && parts.stream().noneMatch(String::isEmpty) ? Optional.of(parts)
                    : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A time as a cursor field: microseconds since the epoch, as PostgreSQL keeps it. */
    public static long micros(Instant time) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, time);
    }

    /** The time of a {@link #micros} field; throws {@link NumberFormatException} or {@link DateTimeException}. */
    public static Instant fromMicros(String field) {
        return Instant.EPOCH.plus(Long.parseLong(field), ChronoUnit.MICROS);
    }
}
