package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The foster home's row locks as the database takes them (ADR-060 D7, decision 22): an update of a home
 * that changes no key holds {@code FOR NO KEY UPDATE}, which a placement insert's foreign-key check
 * ({@code FOR KEY SHARE}) passes; a {@code license_number} change holds the key-strength lock, which it
 * waits for; and the occupancy gate's own refusals carry their SQLSTATEs. Each waiting statement is
 * shown waiting by {@code pg_blocking_pids}, never by a pause.
 */
class FosterHomeLocksIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldNotBlockAPlacementInsertsKeyCheckWhileAnUpdateHoldsTheHomeForNoKeyUpdate() throws Exception {
        UUID home = Rows.fosterHome().insert(jdbc);
        try (Connection holder = open(); Connection inserter = open()) {
            updateAsTheApiDoes(holder, home, "name = 'Renamed', capacity = 3");
            // a lock wait would fail the insert instead of hanging the test
            execute(inserter, "SET lock_timeout = '5s'");

            execute(inserter, insertPlacement(home));

            inserter.commit();
            holder.commit();
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ?", Integer.class, home))
                .isEqualTo(1);
    }

    @Test
    void shouldMakeALicenseNumberChangeTakeTheKeyStrengthLockThatAPlacementInsertWaitsFor() throws Exception {
        UUID home = Rows.fosterHome().insert(jdbc);
        try (Connection holder = open(); Connection inserter = open()) {
            updateAsTheApiDoes(holder, home, "license_number = 'GA-RENUMBERED'");
            int holderPid = pid(holder);
            int inserterPid = pid(inserter);

            CompletableFuture<Void> insert = CompletableFuture.runAsync(() -> execute(inserter, insertPlacement(home)));
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the insert's key check waiting behind the license number change")
                    .until(() -> jdbc.queryForObject("SELECT ? = ANY (pg_blocking_pids(?))", Boolean.class,
                            holderPid, inserterPid));
            holder.commit();
            insert.get(20, TimeUnit.SECONDS);
            inserter.commit();
        }
        assertThat(jdbc.queryForObject("SELECT license_number FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo("GA-RENUMBERED");
    }

    @Test
    void shouldRefuseAnActivationBeyondCapacityWithTheGatesOwnSqlState() {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        Rows.placement(UUID.randomUUID()).in(home).status("ACTIVE").insert(jdbc);
        UUID second = Rows.placement(UUID.randomUUID()).in(home).insert(jdbc);

        assertThatThrownBy(() -> jdbc.update("UPDATE placements SET status = 'ACTIVE' WHERE id = ?", second))
                .hasRootCauseInstanceOf(SQLException.class)
                .rootCause().satisfies(cause -> assertThat(((SQLException) cause).getSQLState())
                        .isEqualTo(HomeGate.AT_CAPACITY));
        assertThat(jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, second))
                .isEqualTo("PROPOSED");
    }

    @Test
    void shouldRefuseAPlacementInASuspendedHomeAndAnActivationInAPendingOne() {
        UUID suspended = Rows.fosterHome().licenseStatus("SUSPENDED").insert(jdbc);
        UUID pending = Rows.fosterHome().licenseStatus("PENDING").insert(jdbc);
        UUID proposed = Rows.placement(UUID.randomUUID()).in(pending).insert(jdbc);

        assertThatThrownBy(() -> Rows.placement(UUID.randomUUID()).in(suspended).insert(jdbc))
                .rootCause().satisfies(cause -> assertThat(((SQLException) cause).getSQLState())
                        .isEqualTo(HomeGate.NOT_LICENSED));
        assertThatThrownBy(() -> jdbc.update("UPDATE placements SET status = 'ACTIVE' WHERE id = ?", proposed))
                .rootCause().satisfies(cause -> assertThat(((SQLException) cause).getSQLState())
                        .isEqualTo(HomeGate.NOT_LICENSED));
    }

    @Test
    void shouldRefuseLoweringCapacityBelowTheActivePlacementsAndAllowNullAsUnlimited() {
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        for (int i = 0; i < 3; i++) {
            Rows.placement(UUID.randomUUID()).in(home).status("ACTIVE").insert(jdbc);
        }

        assertThatThrownBy(() -> jdbc.update("UPDATE foster_homes SET capacity = 2 WHERE id = ?", home))
                .rootCause().satisfies(cause -> assertThat(((SQLException) cause).getSQLState())
                        .isEqualTo(HomeGate.BELOW_OCCUPANCY));
        assertThat(jdbc.update("UPDATE foster_homes SET capacity = 3 WHERE id = ?", home)).isEqualTo(1);
    }

    /** The API's locked re-read of the home, then its UPDATE; left uncommitted. */
    private static void updateAsTheApiDoes(Connection holder, UUID home, String assignments) {
        execute(holder, "SELECT id FROM foster_homes WHERE id = '" + home + "' FOR NO KEY UPDATE");
        execute(holder, "UPDATE foster_homes SET " + assignments + " WHERE id = '" + home + "'");
    }

    private static String insertPlacement(UUID home) {
        return "INSERT INTO placements (id, case_id, status, foster_home_id, created_by) VALUES ('"
                + UUID.randomUUID() + "', '" + UUID.randomUUID() + "', 'PROPOSED', '" + home + "', 'test')";
    }

    private static Connection open() throws SQLException {
        Connection connection = DB.dataSource().getConnection();
        connection.setAutoCommit(false);
        return connection;
    }

    private static int pid(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_backend_pid()");
             var rs = statement.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void execute(Connection connection, String sql) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
