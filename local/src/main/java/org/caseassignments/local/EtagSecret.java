package org.caseassignments.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The mutation API's ETag secret ({@code API_ETAG_SECRET}) for the local stack: 32 random bytes,
 * generated on first start and kept in the data folder, so that ETags a client read stay valid
 * across a restart and are gone with {@code --fresh}.
 */
final class EtagSecret {

    private static final int BYTES = 32;

    private EtagSecret() {
    }

    /** The secret as the API reads it: base64url text, 43 characters. */
    static String loadOrCreate(Path dataDir) throws IOException {
        Path dir = dataDir.resolve("api");
        Files.createDirectories(dir);
        Path file = dir.resolve("etag-secret");
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.US_ASCII).strip();
        }
        byte[] random = new byte[BYTES];
        new SecureRandom().nextBytes(random);
        String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.writeString(file, secret + "\n", StandardCharsets.US_ASCII);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException ignored) {
            // not a POSIX file system; the data folder is the user's own
        }
        return secret;
    }
}
