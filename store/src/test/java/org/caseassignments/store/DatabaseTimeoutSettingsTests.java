package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.caseassignments.testkit.OpsDefinitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * Each deployable's application.yml reads the pool's timeouts from the variables docs/settings.md names, the new
 * durations and the deprecated numbers, and keeps its own defaults when none is set: its pool as Spring Boot binds it
 * and {@link DatabaseTimeouts} then sets it.
 */
class DatabaseTimeoutSettingsTests {

    private static final Path ROOT = OpsDefinitions.root().getParent();

    @ParameterizedTest(name = "{0} with {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # each deployable's defaults, when no variable is set
            projector    |                                                                     | 120  | 5000
            mutation-api |                                                                     | 120  | 5000
            backfill     |                                                                     | 3600 | 30000
            # the durations
            projector    | DATABASE_SOCKET_TIMEOUT=90s DATABASE_CONNECTION_TIMEOUT=2s          | 90   | 2000
            mutation-api | DATABASE_SOCKET_TIMEOUT=PT1M DATABASE_POOL_TIMEOUT=750ms            | 60   | 750
            backfill     | DATABASE_SOCKET_TIMEOUT=2h                                          | 7200 | 30000
            # the deprecated numbers, alone
            projector    | DATABASE_SOCKET_TIMEOUT_SECONDS=30 DATABASE_CONNECTION_TIMEOUT_MS=2500 | 30   | 2500
            mutation-api | DATABASE_SOCKET_TIMEOUT_SECONDS=45 DATABASE_POOL_TIMEOUT_MS=1000       | 45   | 1000
            backfill     | DATABASE_SOCKET_TIMEOUT_SECONDS=600                                 | 600  | 30000
            # one ConfigMap shared by every deployable: each reads its own variables, never another's
            projector    | DATABASE_CONNECTION_TIMEOUT_MS=4000 DATABASE_POOL_TIMEOUT_MS=2000   | 120  | 4000
            mutation-api | DATABASE_CONNECTION_TIMEOUT_MS=4000 DATABASE_POOL_TIMEOUT_MS=2000   | 120  | 2000
            backfill     | DATABASE_CONNECTION_TIMEOUT_MS=4000 DATABASE_POOL_TIMEOUT_MS=2000   | 3600 | 30000
            projector    | DATABASE_POOL_TIMEOUT=2s                                            | 120  | 5000
            mutation-api | DATABASE_CONNECTION_TIMEOUT=2s                                      | 120  | 5000
            backfill     | DATABASE_CONNECTION_TIMEOUT=2s DATABASE_POOL_TIMEOUT=1s             | 3600 | 30000
            # the keys the application.yml files map, as environment variables: no variable reaches them
            projector    | CASE_ASSIGNMENTS_DATABASE_SOCKET_TIMEOUT=5s CASEASSIGNMENTS_DATABASE_POOLTIMEOUT=1s | 120 | 5000
            mutation-api | CASEASSIGNMENTS_DATABASE_SOCKETTIMEOUT=5s CASE_ASSIGNMENTS_DATABASE_CONNECTION_TIMEOUT=1s | 120 | 5000
            backfill     | CASE_ASSIGNMENTS_DATABASE_POOL_TIMEOUT=1s CASEASSIGNMENTS_DATABASE_CONNECTIONTIMEOUT=2s | 3600 | 30000
            backfill     | CASE_ASSIGNMENTS_DATABASE_SOCKET_TIMEOUT_SECONDS=7 CASE_ASSIGNMENTS_DATABASE_POOL_TIMEOUT_MS=900 | 3600 | 30000
            """)
    void shouldSetThePoolsTimeoutsFromTheVariablesTheDeployableReads(String deployable, String variables, String socketTimeout,
            long connectionTimeout) throws IOException {
        Map<String, String> set = new HashMap<>();
        if (variables != null) {
            for (String variable : variables.split(" ")) {
                set.put(variable.substring(0, variable.indexOf('=')), variable.substring(variable.indexOf('=') + 1));
            }
        }

        assertThat(pool(deployable, set)).isEqualTo("socketTimeout=" + socketTimeout + " connectionTimeout=" + connectionTimeout);
    }

    /**
     * The deployable's pool, bound from its application.yml with these environment variables (as the process's
     * environment, so Spring Boot's relaxed binding maps them as it does in production), then given its timeouts as
     * the deployable's configuration binds them.
     */
    private static String pool(String deployable, Map<String, String> variables) throws IOException {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.<String, Object>copyOf(variables)));
        new YamlPropertySourceLoader().load("application.yml", new FileSystemResource(
                ROOT.resolve(deployable).resolve("src/main/resources/application.yml"))).forEach(environment.getPropertySources()::addLast);
        ConfigurationPropertySources.attach(environment); // as Spring Boot's environment is: one source over all
        Binder binder = Binder.get(environment);
        try (HikariDataSource pool = new HikariDataSource()) {
            binder.bind("spring.datasource.hikari", Bindable.ofInstance(pool));
            DatabaseTimeouts.boundFrom(environment).applyTo(pool);
            return "socketTimeout=" + pool.getDataSourceProperties().get("socketTimeout")
                    + " connectionTimeout=" + pool.getConnectionTimeout();
        }
    }
}
