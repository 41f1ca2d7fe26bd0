package org.caseassignments.api.http;

import java.nio.charset.StandardCharsets;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * HTTP settings ({@code api.*}); each has an environment-variable override in application.yml.
 *
 * @param maxBodySize the largest request body accepted ({@code API_MAX_BODY_SIZE}); larger is a 413
 * @param etagSecret  the key of the ETag MAC ({@code API_ETAG_SECRET}), at least
 *                    {@value EntityTags#MIN_SECRET_BYTES} bytes in UTF-8; required, and the same on every instance.
 *                    The key that seals list cursors is derived from it ({@link OpaqueCursor})
 */
@ConfigurationProperties("api")
public record ApiProperties(@DefaultValue("64KB") DataSize maxBodySize, String etagSecret) {

    public ApiProperties {
        if (etagSecret == null || etagSecret.getBytes(StandardCharsets.UTF_8).length < EntityTags.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("api.etag-secret (API_ETAG_SECRET) must be a secret of at least "
                    + EntityTags.MIN_SECRET_BYTES + " bytes, the same on every instance (for example the output of "
                    + "`openssl rand -base64 32`); it is " + (etagSecret == null || etagSecret.isEmpty() ? "not set"
                    : etagSecret.getBytes(StandardCharsets.UTF_8).length + " bytes long")
                    + ". ETags are a MAC under it, so that no client can name a version it has not read");
        }
    }

    byte[] etagKey() {
        return etagSecret.getBytes(StandardCharsets.UTF_8);
    }

    /** Never prints the secret (a record's own toString would). */
    @Override
    public String toString() {
        return "ApiProperties[maxBodySize=" + maxBodySize + ", etagSecret=(" + etagKey().length + " bytes)]";
    }
}
