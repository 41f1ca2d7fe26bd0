package org.caseassignments.api.testsupport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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

    /**
     * The same properties but the pool's size, as command-line arguments, for a program that starts the application
     * itself (a {@code *Performance} benchmark) on random ports; then the program's own ({@code --name=value}), each
     * in place of the one of the same name (Spring would read a name given twice as a list).
     */
    public static String[] arguments(TestDatabase database, String... own) {
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--auth.issuer=" + TestTokens.ISSUER, "--auth.audience=" + TestTokens.AUDIENCE,
                "--auth.public-key-location=file:" + TestTokens.publicKeyPem(),
                "--api.etag-secret=" + TestETags.SECRET, "--policy.reload-interval=0s",
                "--server.port=0", "--management.server.port=0"));
        List<String> names = Arrays.stream(own).map(TestApplication::name).toList();
        arguments.removeIf(argument -> names.contains(name(argument)));
        arguments.addAll(List.of(own));
        return arguments.toArray(String[]::new);
    }

    private static String name(String argument) {
        int equals = argument.indexOf('=');
        return equals < 0 ? argument : argument.substring(0, equals);
    }
}
