package org.caseassignments.api.security;

import java.io.IOException;
import java.io.InputStream;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.converter.RsaKeyConverters;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.OAuth2ProtectedResourceMetadata;
import org.springframework.security.oauth2.server.resource.OAuth2ProtectedResourceMetadataClaimNames;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.web.context.support.WebApplicationContextUtils;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Bearer tokens only, no sessions. Probes ({@code /livez}, {@code /readyz}), the OpenAPI description and
 * the internal management port are public; every
 * other request needs a valid token ({@link TokenRules}; 401 with an empty body otherwise). Authorization is not decided here but by the
 * rulesets, per resource, in the handlers.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    private static final String[] PUBLIC_PATHS = {
            "/livez", "/readyz", "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
            "/swagger-ui.html", "/swagger-ui/**", "/error"};

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http
                .csrf(AbstractHttpConfigurer::disable)
                // Filters a bearer-token API never needs, each a matcher or a wrapper on every request:
                // no login, so no logout; no session, so no saved request to resume; no servlet
                // login/logout methods on the request.
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .servletApi(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth
                        .requestMatchers(SecurityConfiguration::onManagementServer).permitAll()
                        .requestMatchers(PUBLIC_PATHS).permitAll()
                        .anyRequest().authenticated())
                .oauth2ResourceServer(server -> server
                        .jwt(Customizer.withDefaults())
                        .protectedResourceMetadata(metadata -> metadata
                                .protectedResourceMetadataCustomizer(SecurityConfiguration::claimOnlyWhatIsDone)))
                .build();
    }

    /**
     * A request to the management server ({@code management.server.port}): the actuator's own context,
     * which this chain also guards. That port is internal (operators and scrapers, no tokens); the API's
     * port does not serve the actuator at all, except the probes.
     */
    private static boolean onManagementServer(HttpServletRequest request) {
        ApplicationContext context = WebApplicationContextUtils.getWebApplicationContext(request.getServletContext());
        return context != null && WebServerApplicationContext.hasServerNamespace(context, "management");
    }

    /**
     * The protected-resource metadata (RFC 9728) Spring serves at {@code /.well-known/oauth-protected-resource}
     * claims certificate-bound tokens by default; this service does not bind tokens to client certificates
     * (RFC 8705), so the claim goes (absent means false). What stays is true: the resource's URL and bearer
     * tokens in the Authorization header only.
     */
    private static void claimOnlyWhatIsDone(OAuth2ProtectedResourceMetadata.Builder metadata) {
        metadata.claims(claims ->
                claims.remove(OAuth2ProtectedResourceMetadataClaimNames.TLS_CLIENT_CERTIFICATE_BOUND_ACCESS_TOKENS));
    }

    @Bean
    JwtDecoder jwtDecoder(AuthProperties auth, TokenCacheProperties cache, ServedJurisdictions served,
                          MeterRegistry meters) {
        NimbusJwtDecoder decoder = auth.usesJwkSet()
                ? NimbusJwtDecoder.withJwkSetUri(auth.jwkSetUri()).build()
                : NimbusJwtDecoder.withPublicKey(publicKey(auth.publicKeyLocation())).build();
        Clock clock = Clock.systemUTC();
        OAuth2TokenValidator<Jwt> rules = TokenRules.validator(auth, served::servesJurisdiction, clock);
        decoder.setJwtValidator(rules);
        return cache.maximumSize() == 0 ? decoder : new CachingJwtDecoder(decoder, rules, cache, clock).measuredBy(meters);
    }

    /**
     * The request observation ({@code http.server.requests}: metrics, and the trace context when a
     * tracer is present) stays; Spring Security's own per-filter, authentication and authorization
     * observations go: each wrapped every filter of the chain on every request, and no dashboard
     * or alert of this service reads them (decision 20).
     */
    @Bean
    SecurityObservationSettings securityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** Spring Security's strict firewall, with the header checks as a loop instead of a regex per header. */
    @Bean
    HttpFirewall firewall() {
        return HeaderCharacters.firewall();
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
