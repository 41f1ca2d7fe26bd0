package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The foster home's row locks as the database takes them (ADR-060 D7, decision 22): an update of a home
 * that changes no key holds {@code FOR NO KEY UPDATE}, which a placement insert's foreign-key check
 * ({@code FOR KEY SHARE}) passes, and so does one that changes {@code license_number}: its uniqueness is an index on
 * an expression (decision 41), which no foreign key can use, so the change takes no key-strength lock; and the
 * occupancy gate's own refusals carry their SQLSTATEs. Each waiting statement is
 * shown waiting by {@code pg_blocking_pids}, never by a pause.
 */
class FosterHomeLocksIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldNotBlockAPlacementInsertsKeyCheckWhileAnUpdateHoldsTheHomeEvenWhenItChangesTheLicenseNumber()
            throws Exception {
        for (String change : List.of("name = 'Renamed', capacity = 3", "license_number = 'GA-RENUMBERED'")) {
            UUID home = Rows.fosterHome().insert(jdbc);
            try (Connection holder = open(); Connection inserter = open()) {
                updateAsTheApiDoes(holder, home, change);
                // a lock wait would fail the insert instead of hanging the test
                execute(inserter, "SET lock_timeout = '5s'");

                execute(inserter, insertPlacement(home));

                inserter.commit();
                holder.commit();
            }
            assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ?", Integer.class,
                    home)).as(change).isEqualTo(1);
        }
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

    private static void execute(Connection connection, String sql) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
