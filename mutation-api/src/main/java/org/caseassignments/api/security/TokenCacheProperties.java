package org.caseassignments.api.security;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The cache of verified tokens ({@code auth.token-cache.*}; decision 20). An entry is never used past
 * its token's {@code exp}, nor before its {@code nbf}, and every claim rule still runs on every use.
 *
 * @param maximumSize how many tokens are kept, least recently used evicted first
 *                    ({@code AUTH_TOKEN_CACHE_MAXIMUM_SIZE}); 0 turns the cache off
 * @param maxAge      how long an entry is kept at most, however far its {@code exp}
 *                    ({@code AUTH_TOKEN_CACHE_MAX_AGE}): a signing key withdrawn from the JWK set stops
 *                    being trusted for cached tokens after this long
 */
@ConfigurationProperties("auth.token-cache")
public record TokenCacheProperties(@DefaultValue("10000") int maximumSize, @DefaultValue("5m") Duration maxAge) {

    public TokenCacheProperties {
        if (maximumSize < 0) {
            throw new IllegalArgumentException("auth.token-cache.maximum-size (AUTH_TOKEN_CACHE_MAXIMUM_SIZE) must be "
                    + "0 (no cache) or more, not " + maximumSize);
        }
        if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("auth.token-cache.max-age (AUTH_TOKEN_CACHE_MAX_AGE) must be positive, "
                    + "not " + maxAge);
        }
    }
}
