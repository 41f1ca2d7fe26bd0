package org.caseassignments.backfill;

import org.caseassignments.store.AssignmentWriter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The store's guarded writer: the one implementation of the never-rewind write, shared with the projector. */
@Configuration(proxyBeanMethods = false)
class BackfillConfiguration {

    @Bean
    AssignmentWriter assignmentWriter(JdbcTemplate jdbc) {
        return new AssignmentWriter(jdbc);
    }
}
