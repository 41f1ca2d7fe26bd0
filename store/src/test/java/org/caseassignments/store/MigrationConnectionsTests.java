package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class MigrationConnectionsTests {

    @Test
    void shouldCarryThePoolsPropertiesWithoutItsSocketTimeoutOrIdleInTransactionLimit() {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.addDataSourceProperty("socketTimeout", "120");
            pool.addDataSourceProperty("tcpKeepAlive", "true");
            pool.addDataSourceProperty("sslmode", "verify-full");
            pool.addDataSourceProperty("options", "-c tcp_keepalives_idle=60 -c idle_in_transaction_session_timeout=60s");
            DriverManagerDataSource migration = new DriverManagerDataSource("jdbc:postgresql://db/cases", "owner", "secret");

            MigrationConnections.carryThePoolsProperties(migration, pool);

            assertThat(migration.getConnectionProperties())
                    .containsEntry("tcpKeepAlive", "true")
                    .containsEntry("sslmode", "verify-full")
                    .containsEntry("socketTimeout", "0")
                    .containsEntry("options", "-c tcp_keepalives_idle=60 -c idle_in_transaction_session_timeout=60s"
                            + " -c idle_in_transaction_session_timeout=0");
        }
    }
}
