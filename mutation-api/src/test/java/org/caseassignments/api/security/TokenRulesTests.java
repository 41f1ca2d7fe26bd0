package org.caseassignments.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/** The claim rules alone, on decoded tokens; {@code StrictTokensIntegrationTests} sends signed ones over HTTP. */
class TokenRulesTests {

    private static final AuthProperties AUTH = new AuthProperties("https://issuer.test", "case-assignments", null,
            "file:/keys/public.pem", Duration.ofSeconds(60), false);
    private static final OAuth2TokenValidator<Jwt> RULES = TokenRules.validator(AUTH, Set.of("georgia", "texas")::contains);

    @Test
    void shouldAcceptAWellFormedToken() {
        assertThat(validate(claims -> { })).isEmpty();
        assertThat(validate(claims -> {
            claims.remove("roles");
            claims.remove("admin_units");
        })).as("absent lists are empty lists").isEmpty();
        assertThat(validate(claims -> claims.put("sub", "s".repeat(TokenRules.MAX_SUBJECT_LENGTH)))).isEmpty();
        assertThat(validate(claims -> claims.put("sub", "Zoë 🦊 ümlaut"))).as("non-ASCII text is fine").isEmpty();
    }

    @Test
    void shouldRequireAnExpiry() {
        assertThat(validate(claims -> claims.remove("exp"))).contains("exp");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t", "a\u0000b", "a\tb", "a\nb", "\u001b[31m", "a\u007fb", "a\u0085b", "a\u009fb",
            "a\ud800b", "a\udc00"})
    void shouldRefuseABlankSubjectOrOneWithControlCharactersOrUnpairedSurrogates(String sub) {
        assertThat(validate(claims -> claims.put("sub", sub))).contains("sub");
    }

    @Test
    void shouldRefuseAnAbsentOverlongOrNonStringSubject() {
        assertThat(validate(claims -> claims.remove("sub"))).contains("sub");
        assertThat(validate(claims -> claims.put("sub", "s".repeat(TokenRules.MAX_SUBJECT_LENGTH + 1)))).contains("sub");
        assertThat(validate(claims -> claims.put("sub", 42))).contains("sub");
    }

    @Test
    void shouldRefuseRolesOrAdminUnitsThatAreNotArraysOfStrings() {
        assertThat(validate(claims -> claims.put("roles", "admin"))).contains("roles");
        assertThat(validate(claims -> claims.put("roles", List.of("admin", 7)))).contains("roles");
        assertThat(validate(claims -> claims.put("roles", Map.of("admin", true)))).contains("roles");
        assertThat(validate(claims -> claims.put("admin_units", "unit-1"))).contains("admin_units");
        assertThat(validate(claims -> claims.put("admin_units", Arrays.asList("unit-1", null))))
                .contains("admin_units");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a\u0000b", "a\tb", "a\nb", "\u001b[31m", "a\u007fb", "a\u0085b", "a\ud800b", "a\udc00"})
    void shouldRefuseRolesOrAdminUnitsWithAnElementThatIsNotASubjectLikeText(String element) {
        assertThat(validate(claims -> claims.put("roles", List.of("caseworker", element)))).contains("roles");
        assertThat(validate(claims -> claims.put("admin_units", List.of(element, "unit-1")))).contains("admin_units");
    }

    @Test
    void shouldRefuseAnOverlongRoleOrAdminUnitButAcceptOneAtTheLimit() {
        String atLimit = "r".repeat(TokenRules.MAX_SUBJECT_LENGTH);
        assertThat(validate(claims -> claims.put("roles", List.of(atLimit)))).isEmpty();
        assertThat(validate(claims -> claims.put("admin_units", List.of("Zoë 🦊", atLimit)))).isEmpty();
        assertThat(validate(claims -> claims.put("roles", List.of(atLimit + "r")))).contains("roles");
        assertThat(validate(claims -> claims.put("admin_units", List.of(atLimit + "u")))).contains("admin_units");
    }

    @Test
    void shouldRequireAJurisdictionARulesetServes() {
        assertThat(validate(claims -> claims.remove("jurisdiction"))).contains("jurisdiction");
        assertThat(validate(claims -> claims.put("jurisdiction", "atlantis"))).contains("jurisdiction");
        assertThat(validate(claims -> claims.put("jurisdiction", "Georgia"))).contains("jurisdiction");
        assertThat(validate(claims -> claims.put("jurisdiction", List.of("georgia")))).contains("jurisdiction");
        assertThat(validate(claims -> claims.put("jurisdiction", "texas"))).isEmpty();
    }

    /** The descriptions of the failed rules, joined; empty when the token is valid. */
    private static String validate(Consumer<Map<String, Object>> change) {
        Instant now = Instant.now();
        Map<String, Object> claims = new HashMap<>();
        claims.put("iss", "https://issuer.test");
        claims.put("aud", List.of("case-assignments"));
        claims.put("sub", "w-1");
        claims.put("iat", now);
        claims.put("exp", now.plusSeconds(600));
        claims.put("roles", List.of("caseworker"));
        claims.put("admin_units", List.of());
        claims.put("jurisdiction", "georgia");
        change.accept(claims);
        Jwt jwt = new Jwt("token", now, (Instant) claims.get("exp"), Map.of("alg", "RS256"), claims);
        OAuth2TokenValidatorResult result = RULES.validate(jwt);
        return String.join("; ", result.getErrors().stream().map(OAuth2Error::getDescription).toList());
    }
}
