package org.caseassignments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import com.zaxxer.hikari.HikariDataSource;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;

/** The test support that makes the application's pool take up a database setting, on a pool of the real PostgreSQL. */
class PoolSessionsTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Test
    void shouldOpenSessionsReadingTheSettingWhenThePoolHasNotStartedYet() throws Exception {
        // Given a pool nothing has borrowed from yet (Hikari starts it at its first borrow) and a new database default
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(DB.jdbcUrl());
            pool.setUsername(DB.username());
            pool.setPassword(DB.password());
            pool.setMaximumPoolSize(2);
            DB.jdbc().execute("ALTER DATABASE " + DB.name() + " SET lock_timeout = '300ms'");
            try {
                // When the test support makes its sessions read it
                PoolSessions.reading(pool, "lock_timeout", "300ms");

                // Then the pool's next session reads it
                try (Connection connection = pool.getConnection();
                     Statement statement = connection.createStatement();
                     ResultSet shown = statement.executeQuery("SELECT current_setting('lock_timeout')")) {
                    shown.next();
                    assertThat(shown.getString(1)).isEqualTo("300ms");
                }
            } finally {
                DB.jdbc().execute("ALTER DATABASE " + DB.name() + " RESET lock_timeout");
            }
        }
    }
}
