package org.caseassignments.api.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;

/**
 * The strong ETag of one version of one resource: a MAC of the resource type, its id and the row
 * version under a secret only the service knows (HMAC-SHA256, the first {@value #TAG_BYTES} bytes,
 * base64url without padding, in quotes: {@code "q3xk0Vd5a1Jp2m2TQbJ1hg"}), and, for a body that shows what no write
 * of its row changes (a foster home's ACTIVE placements, a case's assignment the projection holds and the row's copy
 * does not), of that too: one tag, one body (decision 44).
 *
 * <p>Why not the row version itself: a client could then name versions it never read
 * ({@code If-Match: "1", "2"}) and a precondition would pass on a row it has not seen. A tag can
 * only be had by reading that version of that resource; a tag of another resource or another
 * version never matches. Every instance of the service must share the secret; changing it turns
 * every outstanding tag into a 412, after which clients read again.
 */
public final class EntityTags {

    /** The shortest secret accepted: the MAC's key should hold as much as its output. */
    public static final int MIN_SECRET_BYTES = 32;
    static final int TAG_BYTES = 16;

    private static final String ALGORITHM = "HmacSHA256";
    /** Separates these MACs from any other use of the secret, and lets the format change later. */
    private static final byte[] DOMAIN = "case-assignments etag v1\0".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;
    /** One initialised MAC per thread: {@code doFinal} resets it for the next tag, and a lookup per tag costs more than the MAC. */
    private final ThreadLocal<Mac> macs;

    public EntityTags(byte[] secret) {
        if (secret == null || secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("The ETag secret must be at least " + MIN_SECRET_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(secret, ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
        // fails at startup rather than on the first request, should this JVM lack the algorithm
        of(ResourceType.PLACEMENT, new UUID(0, 0), 0);
    }

    /** The quoted strong ETag of a stored resource's version and the state its body derives ({@code Versioned}). */
    public String of(ResourceRef resource, long rowVersion, byte[] derivedState) {
        return of(resource.type(), resource.id(), rowVersion, derivedState);
    }

    /** The quoted strong ETag of a version of the resource {@code type}/{@code id} whose body derives nothing. */
    public String of(ResourceType type, UUID id, long rowVersion) {
        return of(type, id, rowVersion, new byte[0]);
    }

    /** The quoted strong ETag of a version of the resource {@code type}/{@code id} and the state its body derives. */
    public String of(ResourceType type, UUID id, long rowVersion, byte[] derivedState) {
        Objects.requireNonNull(id, "a resource not stored yet has no ETag");
        byte[] name = type.wireName().getBytes(StandardCharsets.US_ASCII);
        // The type name never contains NUL and ends the only variable-length part before the derived state, which
        // comes last and is encoded unambiguously by each type (Versioned), so the message is unambiguous; without
        // a derived state, the message (and the tag) is the one of before V15.
        ByteBuffer message = ByteBuffer.allocate(DOMAIN.length + name.length + 1 + 3 * Long.BYTES + derivedState.length)
                .put(DOMAIN).put(name).put((byte) 0)
                .putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .putLong(rowVersion);
        message.put(derivedState);
        byte[] mac = macs.get().doFinal(message.array());
        return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(mac, TAG_BYTES)) + "\"";
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }
}
