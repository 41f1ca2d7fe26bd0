package org.caseassignments.backfill;

import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The store's guarded writer (the one implementation of the never-rewind write) and the schema registry settings,
 * both shared with the projector.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SchemaRegistryProperties.class)
class BackfillConfiguration {

    @Bean
    AssignmentWriter assignmentWriter(JdbcTemplate jdbc) {
        return new AssignmentWriter(jdbc);
    }
}
