package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.OpenTransaction;
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

        // When the home is updated while another transaction holds its row
        Reply reply = updateWhileAnotherTransactionHoldsTheRow(home);

        // Then nothing was written, and the answer says to come back
        assertDatabaseBusy(reply, sqlState, output);
        assertThat(jdbc.queryForObject("SELECT name FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo("Maple House");
    }

    @Test
    void shouldAnswer503DatabaseBusyWhenNoPooledConnectionIsFreeWithinThePoolsTimeout(CapturedOutput output)
            throws Exception {
        // Given every connection of the API's pool held
        UUID home = Rows.fosterHome().insert(jdbc);
        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                held.add(pool.getConnection());
            }

            // When a home is read
            Reply reply = api.get("/foster-homes/" + home, admin);

            // Then
            assertDatabaseBusy(reply, "pool-timeout", output);
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
    }

    /** A PATCH of {@code home} while another transaction holds its row {@code FOR UPDATE}, rolled back after. */
    private Reply updateWhileAnotherTransactionHoldsTheRow(UUID home) {
        try (OpenTransaction holder = OpenTransaction.begin(DB.dataSource(), tx -> tx.queryForList(
                "SELECT id FROM foster_homes WHERE id = ? FOR UPDATE", home)).awaitWork()) {
            return api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1), "{\"name\": \"Oak\"}");
        }
    }

    private void assertDatabaseBusy(Reply reply, String reason, CapturedOutput output) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
        assertThat(reply.code()).isEqualTo("DATABASE_BUSY");
        if ("57014".equals(reason)) {
            assertThat(reply.header("Retry-After")).as("a statement timeout promises no faster retry").isEmpty();
        } else {
            assertThat(reply.header("Retry-After")).hasValue("1");
        }
        assertThat(reply.body()).doesNotContainIgnoringCase("select").doesNotContainIgnoringCase("update")
                .doesNotContain("foster_homes", "SQLSTATE", "canceling", reason);
        assertThat(meters.counter("api.database.busy", "sqlstate", reason).count()).isOne();
        assertThat(output.getAll().lines().filter(line -> line.contains("answered 503 DATABASE_BUSY")).toList())
                .singleElement().asString().contains("WARN").contains("SQLSTATE " + reason);
        assertThat(output.getAll()).doesNotContain("Unhandled failure");
    }

    /**
     * The pool's sessions ended until every one reads {@code setting} as {@code value}: a session the pool was already
     * opening when the database's settings changed started with the old value, and is replaced too.
     */
    private void newSessions(String setting, String value) {
        HikariDataSource hikari = (HikariDataSource) pool;
        hikari.getHikariPoolMXBean().softEvictConnections();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> everySessionReads(hikari, setting, value));
    }

    /** Borrows every connection of the pool at once; evicts each whose session reads another value. */
    private static boolean everySessionReads(HikariDataSource hikari, String setting, String value)
            throws SQLException {
        List<Connection> borrowed = new ArrayList<>();
        List<Connection> stale = new ArrayList<>();
        try {
            while (borrowed.size() + stale.size() < hikari.getMaximumPoolSize()) {
                Connection connection = hikari.getConnection();
                borrowed.add(connection);
                try (Statement statement = connection.createStatement();
                     ResultSet shown = statement.executeQuery("SELECT current_setting('" + setting + "')")) {
                    shown.next();
                    if (!value.equals(shown.getString(1))) {
                        borrowed.remove(connection);
                        stale.add(connection);
                    }
                }
            }
        } finally {
            stale.forEach(hikari::evictConnection);
            for (Connection connection : borrowed) {
                connection.close();
            }
        }
        return stale.isEmpty();
    }
}
