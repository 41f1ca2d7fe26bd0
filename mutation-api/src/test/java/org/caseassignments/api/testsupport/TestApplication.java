package org.caseassignments.api.testsupport;

import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The properties every application test sets: its own database, the test token issuer, the ETag
 * secret, no ruleset polling. {@link ApiIntegrationTest} sets them for a test class.
 */
public final class TestApplication implements RealDatabaseTest.Properties {

    @Override
    public void register(DynamicPropertyRegistry registry, TestDatabase database) {
        TestTokens.register(registry);
        registry.add("api.etag-secret", () -> TestETags.SECRET);
        registry.add("policy.reload-interval", () -> "0s");
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "6");
    }
}
