package org.caseassignments.api.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The running API's pool takes its timeouts from the variables, written as durations: the wait for a free connection
 * in Hikari's milliseconds, the socket timeout in the driver's seconds.
 */
@ApiIntegrationTest
class DatabaseTimeoutsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // As the environment variables would be: application.yml reads ${DATABASE_POOL_TIMEOUT} and
        // ${DATABASE_SOCKET_TIMEOUT}.
        registry.add("DATABASE_POOL_TIMEOUT", () -> "750ms");
        registry.add("DATABASE_SOCKET_TIMEOUT", () -> "PT45S");
    }

    @Autowired
    DataSource dataSource;

    @Test
    void shouldSetThePoolsTimeoutsFromTheirVariablesInTheUnitEachCounts() throws Exception {
        HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);

        assertThat(pool.getConnectionTimeout()).isEqualTo(750);
        assertThat(pool.getDataSourceProperties()).containsEntry("socketTimeout", "45");
    }
}
