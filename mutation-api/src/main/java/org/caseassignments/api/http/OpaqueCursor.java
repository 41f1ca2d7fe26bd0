package org.caseassignments.api.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one encoding of every cursor the API hands out (a case's lists, the audit, a case's history), opaque and
 * authenticated (decision 40): the cursor's fields joined by {@code :}, encrypted with AES-256-GCM under a key
 * derived from the ETag secret, with the list the cursor belongs to (its {@link #scope}) as associated data, in
 * URL-safe base64 without padding. A cursor therefore shows no id and no time, and one that was altered, made up, or
 * handed out for another list (another case, another kind of list, another jurisdiction or filter) does not decode:
 * the caller gets a 400, never another position. Every instance shares the ETag secret, so each accepts the others'
 * cursors; a new secret makes the cursors handed out before it a 400, and clients start again from the first page.
 * The type that holds a cursor's fields says what they are and which values it accepts, and refuses the rest.
 */
public final class OpaqueCursor {

    private static final String SEPARATOR = ":";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    /** Names the key derived from the ETag secret, so no other use of the secret ever yields it. */
    private static final byte[] KEY_LABEL = "case-assignments cursor key v1".getBytes(StandardCharsets.US_ASCII);
    /** Opens the associated data, so the format can change later. */
    private static final byte[] DOMAIN = "case-assignments cursor v1\0".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    /** @param secret the ETag secret ({@code api.etag-secret}); the cursor key is derived from it */
    public OpaqueCursor(byte[] secret) {
        this.key = new SecretKeySpec(derive(secret), "AES");
        // fails at startup rather than on the first list, should this JVM lack the algorithms
        decode(scope("start"), encode(scope("start"), "0"), 1).orElseThrow();
    }

    /**
     * The list a cursor belongs to: its kind and what selects its rows (a case, a jurisdiction, filters). Each part
     * is written with its length ({@code -} for an absent filter), so no two different lists share a scope.
     */
    public static String scope(Object... parts) {
        return Arrays.stream(parts).map(part -> part == null ? "-" : part.toString().length() + SEPARATOR + part)
                .collect(Collectors.joining(SEPARATOR));
    }

    /** The cursor of these fields in {@code scope}, each written as {@link String#valueOf}. */
    public String encode(String scope, Object... fields) {
        byte[] plain = Arrays.stream(fields).map(String::valueOf).collect(Collectors.joining(SEPARATOR))
                .getBytes(StandardCharsets.UTF_8);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, scope);
            byte[] sealed = ByteBuffer.allocate(NONCE_BYTES + cipher.getOutputSize(plain.length))
                    .put(nonce).put(cipher.doFinal(plain)).array();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to seal a cursor", e);
        }
    }

    /**
     * The cursor's fields; empty for text this service did not hand out for {@code scope}: not base64, altered,
     * sealed under another key or for another list, or with another number of fields, or an empty one.
     */
    public Optional<List<String>> decode(String scope, String text, int fields) {
        byte[] sealed;
        try {
            sealed = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            return Optional.empty();
        }
        String plain;
        try {
            plain = new String(cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(sealed, NONCE_BYTES), scope)
                    .doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to open a cursor", e);
        }
        List<String> parts = List.of(plain.split(SEPARATOR, -1));
        return parts.size() == fields && parts.stream().noneMatch(String::isEmpty) ? Optional.of(parts)
                : Optional.empty();
    }

    /** A time as a cursor field: microseconds since the epoch, as PostgreSQL keeps it. */
    public static long micros(Instant time) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, time);
    }

    /** The time of a {@link #micros} field; throws {@link NumberFormatException} or {@link DateTimeException}. */
    public static Instant fromMicros(String field) {
        return Instant.EPOCH.plus(Long.parseLong(field), ChronoUnit.MICROS);
    }

    private Cipher cipher(int mode, byte[] nonce, String scope) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        byte[] list = scope.getBytes(StandardCharsets.UTF_8);
        cipher.updateAAD(ByteBuffer.allocate(DOMAIN.length + list.length).put(DOMAIN).put(list).array());
        return cipher;
    }

    /** HMAC-SHA256 of a fixed label under the secret: a 256-bit key of its own, one-way from the secret. */
    private static byte[] derive(byte[] secret) {
        if (secret == null || secret.length < EntityTags.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("The cursor key is derived from a secret of at least "
                    + EntityTags.MIN_SECRET_BYTES + " bytes");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(KEY_LABEL);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
