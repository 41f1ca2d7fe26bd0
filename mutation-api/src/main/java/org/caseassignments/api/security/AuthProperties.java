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
 */
@ConfigurationProperties("auth")
public record AuthProperties(String issuer, String audience, String jwkSetUri, String publicKeyLocation,
                             @DefaultValue("60s") Duration clockSkew) {

    public AuthProperties {
        require(issuer, "auth.issuer (AUTH_ISSUER)");
        require(audience, "auth.audience (AUTH_AUDIENCE)");
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
