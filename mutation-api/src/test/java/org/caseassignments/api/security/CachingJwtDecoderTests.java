package org.caseassignments.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.api.testsupport.TestTokens;
import org.junit.jupiter.api.Test;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * The cache of verified tokens in front of the real verifier (RS256 signature and {@link TokenRules}),
 * on a clock the test moves. {@code verifications} counts what reached the verifier, so a test can tell
 * a cached answer from a fresh one.
 */
class CachingJwtDecoderTests {

    private static final Duration SKEW = Duration.ofSeconds(60);
    private static final AuthProperties AUTH = new AuthProperties(TestTokens.ISSUER, TestTokens.AUDIENCE, null,
            "file:" + TestTokens.publicKeyPem(), SKEW, false);

    private final MovableClock clock = new MovableClock(Instant.now());
    private final Set<String> served = ConcurrentHashMap.newKeySet();
    private final AtomicInteger verifications = new AtomicInteger();

    CachingJwtDecoderTests() {
        served.add("georgia");
    }

    @Test
    void shouldVerifyATokenOnceAndAnswerItsRepeatsFromTheCache() {
        CachingJwtDecoder decoder = decoder(100);
        String token = TestTokens.caseworker("w-1").token();

        Jwt first = decoder.decode(token);
        Jwt second = decoder.decode(token);

        assertThat(verifications).hasValue(1);
        assertThat(second.getSubject()).isEqualTo("w-1");
        assertThat(second).isSameAs(first);
    }

    @Test
    void shouldRefuseACachedTokenOnceItHasExpired() {
        // Given a token cached while valid
        CachingJwtDecoder decoder = decoder(100);
        Instant exp = clock.instant().plus(Duration.ofMinutes(5));
        String token = TestTokens.caseworker("w-1").expiredAt(exp).token();
        decoder.decode(token);

        // When its exp has passed by more than the skew the verifier allows
        clock.set(exp.plus(SKEW).plusSeconds(1));

        // Then it is refused, as a token never seen would be
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtValidationException.class);
    }

    @Test
    void shouldNeverAnswerFromTheCacheAtOrAfterExpEvenInsideTheClockSkew() {
        CachingJwtDecoder decoder = decoder(100);
        Instant exp = clock.instant().plus(Duration.ofMinutes(5));
        String token = TestTokens.caseworker("w-1").expiredAt(exp).token();
        decoder.decode(token);

        clock.set(exp);
        decoder.decode(token);
        clock.set(exp.plusSeconds(1));
        decoder.decode(token);

        assertThat(verifications).as("each use at or after exp went to the verifier (which allows the skew)")
                .hasValue(3);
    }

    @Test
    void shouldNeverCacheATokenThatFailsValidation() {
        CachingJwtDecoder decoder = decoder(100);
        String rolesAsString = TestTokens.caseworker("w-1").claim("roles", "admin").token();
        String withoutExpiry = TestTokens.caseworker("w-1").withoutExpiry().token();
        String strangersSignature = TestTokens.caseworker("w-1").signedByStranger().token();

        for (int attempt = 1; attempt <= 2; attempt++) {
            assertThatThrownBy(() -> decoder.decode(rolesAsString)).isInstanceOf(JwtValidationException.class)
                    .hasMessageContaining("roles");
            assertThatThrownBy(() -> decoder.decode(withoutExpiry)).isInstanceOf(JwtValidationException.class);
            assertThatThrownBy(() -> decoder.decode(strangersSignature)).isInstanceOf(BadJwtException.class);
        }

        assertThat(verifications).as("every attempt reached the verifier").hasValue(6);
        assertThat(decoder.cachedTokens()).isZero();
    }

    @Test
    void shouldRefuseACachedTokenWhoseJurisdictionNoRulesetServesAnyMore() {
        // Given a token cached while its jurisdiction was served
        CachingJwtDecoder decoder = decoder(100);
        String token = TestTokens.caseworker("w-1").jurisdiction("georgia").token();
        decoder.decode(token);

        // When a ruleset reload drops the jurisdiction
        served.remove("georgia");

        // Then the cached token is refused at once, without a new verification, and is dropped
        assertThatThrownBy(() -> decoder.decode(token)).isInstanceOf(JwtValidationException.class)
                .hasMessageContaining("jurisdiction");
        assertThat(verifications).hasValue(1);
        assertThat(decoder.cachedTokens()).isZero();
    }

    @Test
    void shouldNotCacheATokenBeforeItsNotBefore() {
        // nbf 30 s ahead: inside the skew, so the verifier accepts it, but it is not yet valid
        CachingJwtDecoder decoder = decoder(100);
        String token = TestTokens.caseworker("w-1").claim("nbf", clock.instant().plusSeconds(30).getEpochSecond()).token();

        decoder.decode(token);
        decoder.decode(token);

        assertThat(verifications).hasValue(2);
        assertThat(decoder.cachedTokens()).isZero();
    }

    @Test
    void shouldKeepNoMoreTokensThanItsMaximumSize() {
        CachingJwtDecoder decoder = decoder(3);

        for (int i = 0; i < 20; i++) {
            decoder.decode(TestTokens.caseworker("w-" + i).token());
        }

        assertThat(decoder.cachedTokens()).isLessThanOrEqualTo(3);
    }

    private CachingJwtDecoder decoder(int maximumSize) {
        OAuth2TokenValidator<Jwt> rules = TokenRules.validator(AUTH, served::contains, clock);
        NimbusJwtDecoder nimbus = NimbusJwtDecoder.withPublicKey(publicKey()).build();
        nimbus.setJwtValidator(rules);
        return new CachingJwtDecoder(token -> {
            verifications.incrementAndGet();
            return nimbus.decode(token);
        }, rules, new TokenCacheProperties(maximumSize, Duration.ofMinutes(5)), clock);
    }

    private static java.security.interfaces.RSAPublicKey publicKey() {
        try (InputStream in = Files.newInputStream(TestTokens.publicKeyPem())) {
            return RsaKeyConverters.x509().convert(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void set(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
