package org.caseassignments.api.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * Remembers tokens whose signature was verified, keyed by the exact token string, so a client that
 * sends the same token again skips parsing and the RSA check (decision 20). What a cached token keeps
 * having to pass:
 * <ul>
 *   <li>only a token the verifier accepted, signature and every {@link TokenRules} rule, is cached;</li>
 *   <li>an entry is used only while its token's {@code exp} is ahead and its {@code nbf} (if any)
 *       behind, without the clock skew the verifier allows: a token in its skew is verified anew;</li>
 *   <li>the claim rules run again on every use, so a jurisdiction no ruleset serves any more refuses a
 *       cached token at once, as it does a new one.</li>
 * </ul>
 */
final class CachingJwtDecoder implements JwtDecoder {

    private final JwtDecoder verifier;
    private final OAuth2TokenValidator<Jwt> rules;
    private final Clock clock;
    private final Cache<String, Jwt> verified;

    /**
     * @param verifier checks the signature and the {@code rules}; whatever it refuses is never cached
     * @param rules    the same rules the verifier applies, run again on each cached use
     */
    CachingJwtDecoder(JwtDecoder verifier, OAuth2TokenValidator<Jwt> rules, TokenCacheProperties settings, Clock clock) {
        this.verifier = verifier;
        this.rules = rules;
        this.clock = clock;
        this.verified = Caffeine.newBuilder()
                .maximumSize(settings.maximumSize())
                .expireAfter(new UntilExpiry(settings.maxAge(), clock))
                .recordStats()
                .build();
    }

    /** Hit rate, size and evictions as {@code cache.*{cache="tokens"}}: a low hit rate costs an RSA check per request. */
    CachingJwtDecoder measuredBy(MeterRegistry meters) {
        CaffeineCacheMetrics.monitor(meters, verified, "tokens");
        return this;
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt cached = verified.getIfPresent(token);
        Instant now = clock.instant();
        if (cached != null) {
            if (usableAt(cached, now)) {
                return checked(token, cached);
            }
            verified.invalidate(token);
        }
        Jwt jwt = verifier.decode(token);
        if (usableAt(jwt, now)) {
            verified.put(token, jwt);
        }
        return jwt;
    }

    /** How many tokens are cached now (after pending evictions). */
    long cachedTokens() {
        verified.cleanUp();
        return verified.estimatedSize();
    }

    private Jwt checked(String token, Jwt cached) {
        OAuth2TokenValidatorResult result = rules.validate(cached);
        if (result.hasErrors()) {
            verified.invalidate(token);
            throw new JwtValidationException(describe(result.getErrors()), result.getErrors());
        }
        return cached;
    }

    private static boolean usableAt(Jwt jwt, Instant now) {
        return jwt.getExpiresAt() != null && now.isBefore(jwt.getExpiresAt())
                && (jwt.getNotBefore() == null || !now.isBefore(jwt.getNotBefore()));
    }

    /** As {@code NimbusJwtDecoder} words it, so a refusal reads the same whether the token was cached or not. */
    private static String describe(Collection<OAuth2Error> errors) {
        return errors.stream()
                .map(OAuth2Error::getDescription)
                .filter(description -> description != null && !description.isEmpty())
                .findFirst()
                .map(description -> "An error occurred while attempting to decode the Jwt: " + description)
                .orElse("Unable to validate Jwt");
    }

    /** Evicts an entry at its token's {@code exp} or after {@code maxAge}, whichever comes first. */
    private record UntilExpiry(Duration maxAge, Clock clock) implements Expiry<String, Jwt> {
        @Override
        public long expireAfterCreate(String token, Jwt jwt, long currentTime) {
            Duration untilExp = Duration.between(clock.instant(), jwt.getExpiresAt());
            return Math.max(0, (untilExp.compareTo(maxAge) < 0 ? untilExp : maxAge).toNanos());
        }

        @Override
        public long expireAfterUpdate(String token, Jwt jwt, long currentTime, long currentDuration) {
            return expireAfterCreate(token, jwt, currentTime);
        }

        @Override
        public long expireAfterRead(String token, Jwt jwt, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
