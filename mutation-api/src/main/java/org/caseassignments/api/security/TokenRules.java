package org.caseassignments.api.security;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;

/**
 * What a signed token must be before any of its claims reaches a decision or the database. Anything
 * else fails validation, which the resource server answers 401 with an empty body:
 * <ul>
 *   <li>{@code exp} present (a token without one would never expire), and with {@code nbf} inside
 *       the clock skew; {@code iss} and {@code aud} as configured;</li>
 *   <li>{@code sub} a non-blank string of at most {@value #MAX_SUBJECT_LENGTH} characters, without
 *       control characters (C0, DEL, C1) or unpaired surrogates: it is compared with stored subjects
 *       and stored as {@code created_by}, so it must be text PostgreSQL stores as sent;</li>
 *   <li>{@code roles} and {@code admin_units}, when present, JSON arrays of strings: a bare string
 *       {@code "admin"} is not read as the list {@code ["admin"]}; each element obeys the rules of
 *       {@code sub}, because both lists are stored in every audit record, and one NUL would fail the
 *       write (or the refusal writer's whole batch) at PostgreSQL;</li>
 *   <li>{@code jurisdiction} a string naming a jurisdiction a ruleset serves at that moment.</li>
 * </ul>
 * Spring's own validators, one per rule, so a failure's description names the claim at fault
 * (in {@code WWW-Authenticate}) without echoing its value.
 */
final class TokenRules {

    static final int MAX_SUBJECT_LENGTH = 255;

    private TokenRules() {
    }

    /** @param servedJurisdiction whether a ruleset serves a jurisdiction now (rulesets are replaced at run time) */
    static OAuth2TokenValidator<Jwt> validator(AuthProperties auth, Predicate<String> servedJurisdiction) {
        return validator(auth, servedJurisdiction, Clock.systemUTC());
    }

    /** @param clock what {@code exp} and {@code nbf} are compared with (the token cache's clock, so both agree) */
    static OAuth2TokenValidator<Jwt> validator(AuthProperties auth, Predicate<String> servedJurisdiction, Clock clock) {
        JwtTimestampValidator timestamps = new JwtTimestampValidator(auth.clockSkew());
        timestamps.setClock(clock);
        return new DelegatingOAuth2TokenValidator<>(List.of(
                timestamps,
                new JwtIssuerValidator(auth.issuer()),
                new JwtAudienceValidator(auth.audience()),
                new JwtClaimValidator<>(JwtClaimNames.EXP, Objects::nonNull),
                new JwtClaimValidator<>(JwtClaimNames.SUB, TokenRules::isSubject),
                new JwtClaimValidator<>(Caller.ROLES, TokenRules::isAbsentOrArrayOfSubjectLikeText),
                new JwtClaimValidator<>(Caller.ADMIN_UNITS, TokenRules::isAbsentOrArrayOfSubjectLikeText),
                new JwtClaimValidator<>(Caller.JURISDICTION,
                        value -> value instanceof String jurisdiction && servedJurisdiction.test(jurisdiction))));
    }

    static boolean isSubject(Object value) {
        return value instanceof String sub && !sub.isBlank() && sub.length() <= MAX_SUBJECT_LENGTH
                && sub.codePoints().noneMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.SURROGATE);
    }

    /** Absent, or an array whose every element is text a subject could be. */
    static boolean isAbsentOrArrayOfSubjectLikeText(Object value) {
        return value == null || value instanceof List<?> list && list.stream().allMatch(TokenRules::isSubject);
    }
}
