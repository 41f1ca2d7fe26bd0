package org.caseassignments.api.testsupport;

import org.caseassignments.testkit.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The properties every application test sets: its own database, the test token issuer, the ETag
 * secret, no ruleset polling.
 */
public final class TestApplication {

    private TestApplication() {
    }

    public static void register(DynamicPropertyRegistry registry, TestDatabase database) {
        database.register(registry);
        TestTokens.register(registry);
        registry.add("api.etag-secret", () -> TestETags.SECRET);
        registry.add("policy.reload-interval", () -> "0s");
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "6");
    }
}
