package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.DatabaseBusyReplies;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.PoolSessions;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * PostgreSQL refusing a request for its own state, not the request's, over HTTP against the real database: a lock not
 * granted within {@code lock_timeout}, a statement cancelled at {@code statement_timeout}, no pooled connection free
 * within the pool's timeout. Each is 503 {@code DATABASE_BUSY} with {@code Retry-After}, one warning with its SQLSTATE
 * and a count, never a 500 and never the statement in the body.
 */
@ApiIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class DatabaseBusyIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "2");
        registry.add("spring.datasource.hikari.connection-timeout", () -> "400");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource pool;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @AfterEach
    void databaseDefaults() {
        jdbc.execute("ALTER DATABASE " + DB.name() + " RESET lock_timeout");
        jdbc.execute("ALTER DATABASE " + DB.name() + " RESET statement_timeout");
        newSessions("lock_timeout", "0");
        newSessions("statement_timeout", "0");
    }

    /**
     * A lock not granted within {@code lock_timeout} (55P03), and a statement cancelled at {@code statement_timeout}
     * while it waits for the lock, with no lock timeout (57014).
     */
    @ParameterizedTest(name = "{0} -> SQLSTATE {1}")
    @CsvSource({"lock_timeout, 55P03", "statement_timeout, 57014"})
    void shouldAnswer503DatabaseBusyWhenAWriteWaitsForARowLockPastTheSessionsTimeout(String timeout, String sqlState,
                                                                                      CapturedOutput output) {
        // Given the API's sessions waiting at most 300 ms for a lock, or for any statement
        UUID home = Rows.fosterHome().insert(jdbc);
        jdbc.execute("ALTER DATABASE " + DB.name() + " SET " + timeout + " = '300ms'");
        newSessions(timeout, "300ms");
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, sqlState);

        // When the home is updated while another transaction holds its row
        Reply reply = updateWhileAnotherTransactionHoldsTheRow(home);

        // Then nothing was written, and the answer says to come back
        busy.assertAnswered(reply, output);
        assertThat(jdbc.queryForObject("SELECT name FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo("Maple House");
    }

    @Test
    void shouldAnswer503DatabaseBusyWhenNoPooledConnectionIsFreeWithinThePoolsTimeout(CapturedOutput output)
            throws Exception {
        // Given every connection of the API's pool held
        UUID home = Rows.fosterHome().insert(jdbc);
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, "pool-timeout");
        try (PoolSessions.Held held = PoolSessions.holdEvery(pool)) {
            // When a home is read
            Reply reply = api.get("/foster-homes/" + home, admin);

            // Then
            busy.assertAnswered(reply, output);
        }
    }

    /** A PATCH of {@code home} while another transaction holds its row {@code FOR UPDATE}, rolled back after. */
    private Reply updateWhileAnotherTransactionHoldsTheRow(UUID home) {
        try (OpenTransaction holder = OpenTransaction.begin(DB.dataSource(), tx -> tx.queryForList(
                "SELECT id FROM foster_homes WHERE id = ? FOR UPDATE", home)).awaitWork()) {
            return api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1), "{\"name\": \"Oak\"}");
        }
    }

    private void newSessions(String setting, String value) {
        PoolSessions.reading(pool, setting, value);
    }
}
