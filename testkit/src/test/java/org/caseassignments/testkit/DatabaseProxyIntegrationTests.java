package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** A proxy made with a delay holds each direction back by it, and passes every byte on in the order it came. */
class DatabaseProxyIntegrationTests {

    private static final TestDatabase DB = TestDatabase.empty();

    @Test
    void shouldAddItsDelayToEachDirectionWhenMadeWithADelay() throws SQLException {
        // Given a proxy that delays each direction by 25 ms, and a connection through it
        try (DatabaseProxy proxy = DatabaseProxy.inFrontOf(DB, Duration.ofMillis(25));
             Connection connection = connect(proxy);
             Statement statement = connection.createStatement()) {

            // When one statement goes to the database and its answer comes back
            long t0 = System.nanoTime();
            try (ResultSet rs = statement.executeQuery("SELECT 1")) {
                rs.next();
            }
            Duration roundTrip = Duration.ofNanos(System.nanoTime() - t0);

            // Then the round trip took at least the delay of both directions
            assertThat(roundTrip).isGreaterThanOrEqualTo(Duration.ofMillis(50));
        }
    }

    @Test
    void shouldPassOnEveryByteInOrderWhenAnAnswerSpansManyReads() throws SQLException {
        // Given a proxy with a delay, and an answer of some megabytes (many reads of the proxy's buffer)
        try (DatabaseProxy proxy = DatabaseProxy.inFrontOf(DB, Duration.ofMillis(1));
             Connection connection = connect(proxy);
             Statement statement = connection.createStatement()) {

            // When the rows are read through the proxy
            long expected = 1;
            try (ResultSet rs = statement.executeQuery("SELECT n, md5(n::text) FROM generate_series(1, 100000) AS n")) {
                while (rs.next()) {
                    // Then each row is whole and comes in its turn
                    assertThat(rs.getLong(1)).isEqualTo(expected);
                    assertThat(rs.getString(2)).hasSize(32);
                    expected++;
                }
            }
            assertThat(expected - 1).isEqualTo(100000);
        }
    }

    @Test
    void shouldEndEveryDelayedWriterWhenItsConnectionsAndTheProxyClose() throws SQLException {
        // Given a proxy with a delay
        try (DatabaseProxy proxy = DatabaseProxy.inFrontOf(DB, Duration.ofMillis(1))) {

            // When connections are opened through it, used, and closed
            for (int i = 0; i < 5; i++) {
                try (Connection connection = connect(proxy);
                     Statement statement = connection.createStatement();
                     ResultSet rs = statement.executeQuery("SELECT 1")) {
                    rs.next();
                }
            }

            // Then no writer outlives its connection
            awaitNoDelayedWriters(proxy);

            // And, with a connection open when the proxy closes, none outlives the proxy
            Connection open = connect(proxy);
            assertThat(delayedWriters(proxy)).isEqualTo(2);
            proxy.close();
            awaitNoDelayedWriters(proxy);
            open.close();
        }
    }

    private static void awaitNoDelayedWriters(DatabaseProxy proxy) {
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(delayedWriters(proxy)).as("live delayed writers").isZero());
    }

    /** The live writer threads of this proxy's delayed directions. */
    private static long delayedWriters(DatabaseProxy proxy) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().equals("database-proxy-delay-" + proxy.port()))
                .count();
    }

    private static Connection connect(DatabaseProxy proxy) throws SQLException {
        return DriverManager.getConnection(proxy.jdbcUrl(), DB.username(), DB.password());
    }
}
