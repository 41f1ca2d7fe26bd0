package org.caseassignments.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class AuthPropertiesTests {

    @Test
    void shouldRefuseTheLocalStacksIssuerUnlessTheLocalStackAllowsIt() {
        assertThatThrownBy(() -> new AuthProperties(AuthProperties.LOCAL_STACK_ISSUER, "case-assignments", null,
                "file:/keys/public.pem", Duration.ofSeconds(60), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AUTH_ALLOW_LOCAL_ISSUER");

        AuthProperties local = new AuthProperties(AuthProperties.LOCAL_STACK_ISSUER, "case-assignments", null,
                "file:/keys/public.pem", Duration.ofSeconds(60), true);
        assertThat(local.issuer()).isEqualTo(AuthProperties.LOCAL_STACK_ISSUER);
    }

    @Test
    void shouldAcceptAnyOtherIssuerWithoutTheLocalFlag() {
        AuthProperties production = new AuthProperties("https://login.example.org/", "case-assignments",
                "https://login.example.org/jwks", null, Duration.ofSeconds(60), false);

        assertThat(production.usesJwkSet()).isTrue();
    }
}
