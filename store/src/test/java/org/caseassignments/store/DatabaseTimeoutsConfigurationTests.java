package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The auto-configuration every deployable gets from store's {@code AutoConfiguration.imports}, in a running context:
 * it sets the timeouts its application.yml maps on the pool, and no environment variable reaches them by relaxed
 * binding.
 */
class DatabaseTimeoutsConfigurationTests {

    private static final String IMPORTS = "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

    @Test
    void shouldSetTheMappedVariablesOnThePoolAndNoVariableNamedAfterItsKeys() throws Exception {
        // Given store's auto-configuration, an application.yml's mapping, and a shared ConfigMap that also names the keys
        Map<String, Object> variables = Map.of(
                "DATABASE_SOCKET_TIMEOUT", "9s",
                "CASE_ASSIGNMENTS_DATABASE_POOL_TIMEOUT", "1s",
                "CASEASSIGNMENTS_DATABASE_CONNECTIONTIMEOUT", "2s",
                "CASE_ASSIGNMENTS_DATABASE_SOCKET_TIMEOUT_SECONDS", "7");
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withInitializer(context -> context.getEnvironment().getPropertySources().replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)))
                .withPropertyValues("case-assignments.database.socket-timeout=${DATABASE_SOCKET_TIMEOUT:}")
                .withUserConfiguration(autoConfiguration())
                .withBean(HikariDataSource.class, () -> {
                    HikariDataSource pool = new HikariDataSource();
                    pool.setConnectionTimeout(5000);
                    return pool;
                });

        // When the context starts
        runner.run(context -> {
            // Then the pool has the mapped socket timeout and keeps its own wait
            assertThat(context).hasNotFailed();
            HikariDataSource pool = context.getBean(HikariDataSource.class);
            assertThat(pool.getDataSourceProperties()).containsEntry("socketTimeout", "9");
            assertThat(pool.getConnectionTimeout()).isEqualTo(5000);
        });
    }

    /** The configuration store's imports file lists: what Spring Boot loads in every deployable. */
    private static Class<?> autoConfiguration() throws IOException, ClassNotFoundException {
        try (InputStream imports = DatabaseTimeoutsConfigurationTests.class.getClassLoader().getResourceAsStream(IMPORTS)) {
            assertThat(imports).as(IMPORTS).isNotNull();
            String listed = new String(imports.readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(listed).isEqualTo(DatabaseTimeoutsConfiguration.class.getName());
            return Class.forName(listed);
        }
    }
}
