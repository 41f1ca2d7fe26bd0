package org.caseassignments.api.jdbc;

import javax.sql.DataSource;

import org.caseassignments.store.MigrationConnections;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The migrations at startup connect with the pool's connection properties ({@link MigrationConnections}). */
@Configuration(proxyBeanMethods = false)
class MigrationConnectionConfiguration {

    @Bean
    FlywayConfigurationCustomizer migrationsConnectAsThePoolDoes(DataSource pool) {
        return configuration -> MigrationConnections.carryThePoolsProperties(configuration.getDataSource(), pool);
    }
}
