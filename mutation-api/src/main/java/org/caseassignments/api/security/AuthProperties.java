package org.caseassignments.api.security;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Token validation settings ({@code auth.*}); each has an environment-variable override in application.yml.
 *
 * @param issuer            the required {@code iss} claim ({@code AUTH_ISSUER})
 * @param audience          a value the {@code aud} claim must contain ({@code AUTH_AUDIENCE})
 * @param jwkSetUri         where the signing keys are published ({@code AUTH_JWK_SET_URI}); or
 * @param publicKeyLocation an RSA public key in PEM, as a Spring resource location such as
 *                          {@code file:/etc/keys/issuer.pem} ({@code AUTH_PUBLIC_KEY_LOCATION})
 * @param clockSkew         tolerance for {@code exp} and {@code nbf} ({@code AUTH_CLOCK_SKEW})
 * @param allowLocalIssuer  accept the local stack's issuer ({@code AUTH_ALLOW_LOCAL_ISSUER}); only the
 *                          local launcher sets it, so a production configuration refuses that issuer
 */
@ConfigurationProperties("auth")
public record AuthProperties(String issuer, String audience, String jwkSetUri, String publicKeyLocation,
                             @DefaultValue("60s") Duration clockSkew, boolean allowLocalIssuer) {

    /** The issuer of the tokens the local stack mints with a key it generates; never a real identity provider. */
    public static final String LOCAL_STACK_ISSUER = "urn:case-assignments:local-stack";

    public AuthProperties {
        require(issuer, "auth.issuer (AUTH_ISSUER)");
        require(audience, "auth.audience (AUTH_AUDIENCE)");
        if (LOCAL_STACK_ISSUER.equals(issuer) && !allowLocalIssuer) {
            throw new IllegalArgumentException("auth.issuer (AUTH_ISSUER) is the local stack's issuer " + LOCAL_STACK_ISSUER
                    + ", whose tokens are signed by a key generated on a developer's machine; it is refused outside the "
                    + "local stack (which sets AUTH_ALLOW_LOCAL_ISSUER=true)");
        }
        boolean jwks = hasText(jwkSetUri);
        boolean pem = hasText(publicKeyLocation);
        if (jwks == pem) {
            throw new IllegalArgumentException("Configure exactly one token key source: auth.jwk-set-uri (AUTH_JWK_SET_URI) "
                    + "or auth.public-key-location (AUTH_PUBLIC_KEY_LOCATION); " + (jwks ? "both are set" : "neither is set"));
        }
    }

    boolean usesJwkSet() {
        return hasText(jwkSetUri);
    }

    private static void require(String value, String name) {
        if (!hasText(value)) {
            throw new IllegalArgumentException(name + " is required: tokens are only accepted from a configured issuer "
                    + "for a configured audience");
        }
    }

    private static boolean hasText(String value) {
        return value != null && !value.isBlank();
    }
}
