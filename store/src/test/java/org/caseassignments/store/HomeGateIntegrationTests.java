package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The occupancy and licence gate's own refusals, each with its SQLSTATE (decision 22). The row locks a home's
 * update leaves are shown with the API's own statements, in the mutation API's
 * {@code FosterHomeUpdateLocksIntegrationTests}.
 */
class HomeGateIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

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
}
