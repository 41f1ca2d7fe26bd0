package org.caseassignments.api.security;

import java.util.List;
import java.util.Optional;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * The authenticated caller as the rulesets see it: the four claims a decision may use. Nothing else
 * from the token reaches a decision.
 *
 * @param sub          the subject, never blank nor with control characters ({@link TokenRules}; else 401)
 * @param roles        {@code roles}: caseworker, supervisor, county_director, admin, service, auditor (others match no rule)
 * @param jurisdiction {@code jurisdiction}: selects the ruleset; a token without one, or naming one no ruleset
 *                     serves, is refused (401)
 * @param adminUnits   {@code admin_units}: the units a county director administers
 */
public record Caller(String sub, List<String> roles, String jurisdiction, List<String> adminUnits) {

    public static final String ROLES = "roles";
    public static final String JURISDICTION = "jurisdiction";
    public static final String ADMIN_UNITS = "admin_units";

    public Caller {
        roles = List.copyOf(roles);
        adminUnits = List.copyOf(adminUnits);
    }

    /** The caller of the request this thread serves; empty when it carries no verified bearer token. */
    public static Optional<Caller> authenticated() {
        return SecurityContextHolder.getContext().getAuthentication() instanceof JwtAuthenticationToken token
                ? Optional.of(of(token.getToken())) : Optional.empty();
    }

    static Caller of(Jwt jwt) {
        return new Caller(jwt.getSubject(), listClaim(jwt, ROLES), jwt.getClaimAsString(JURISDICTION),
                listClaim(jwt, ADMIN_UNITS));
    }

    private static List<String> listClaim(Jwt jwt, String name) {
        if (!jwt.hasClaim(name)) {
            return List.of();
        }
        List<String> values = jwt.getClaimAsStringList(name);
        return values == null ? List.of() : values;
    }
}
