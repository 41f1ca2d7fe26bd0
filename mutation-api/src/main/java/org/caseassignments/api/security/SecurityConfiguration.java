package org.caseassignments.api.security;

import java.io.IOException;
import java.io.InputStream;
import java.security.interfaces.RSAPublicKey;
import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Bearer tokens only, no sessions. Health probes and the OpenAPI description are public; every
 * other request needs a valid token (401 otherwise). Authorization is not decided here but by the
 * rulesets, per resource, in the handlers.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    private static final String[] PUBLIC_PATHS = {
            "/actuator/health", "/actuator/health/**", "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
            "/swagger-ui.html", "/swagger-ui/**", "/error"};

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth
                        .requestMatchers(PUBLIC_PATHS).permitAll()
                        .anyRequest().authenticated())
                .oauth2ResourceServer(server -> server.jwt(Customizer.withDefaults()))
                .build();
    }

    @Bean
    JwtDecoder jwtDecoder(AuthProperties auth) {
        NimbusJwtDecoder decoder = auth.usesJwkSet()
                ? NimbusJwtDecoder.withJwkSetUri(auth.jwkSetUri()).build()
                : NimbusJwtDecoder.withPublicKey(publicKey(auth.publicKeyLocation())).build();
        decoder.setJwtValidator(validator(auth));
        return decoder;
    }

    @Bean
    WebMvcConfigurer callerArgument() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new CallerArgumentResolver());
            }
        };
    }

    /** Expiry and not-before (with the configured skew), issuer, audience, and a non-blank subject. */
    static OAuth2TokenValidator<Jwt> validator(AuthProperties auth) {
        return new DelegatingOAuth2TokenValidator<>(List.of(
                new JwtTimestampValidator(auth.clockSkew()),
                new JwtIssuerValidator(auth.issuer()),
                new JwtAudienceValidator(auth.audience()),
                new JwtClaimValidator<String>(JwtClaimNames.SUB, sub -> sub != null && !sub.isBlank())));
    }

    private static RSAPublicKey publicKey(String location) {
        Resource resource = new DefaultResourceLoader().getResource(location);
        try (InputStream in = resource.getInputStream()) {
            return RsaKeyConverters.x509().convert(in);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("Could not read the token-signing public key (PEM, RSA) from "
                    + "auth.public-key-location=" + location + ": " + e.getMessage(), e);
        }
    }
}
