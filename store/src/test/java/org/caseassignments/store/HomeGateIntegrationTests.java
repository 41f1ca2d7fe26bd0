package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.UUID;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

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

    @Test
    void shouldRefuseAPlacementBecomingActiveWithoutAHome() {
        UUID homeless = Rows.placement(UUID.randomUUID()).insert(jdbc);

        assertRefusedWith(HomeGate.NEEDS_HOME,
                () -> Rows.placement(UUID.randomUUID()).status("ACTIVE").insert(jdbc));
        assertRefusedWith(HomeGate.NEEDS_HOME,
                () -> jdbc.update("UPDATE placements SET status = 'ACTIVE' WHERE id = ?", homeless));
        assertThat(jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, homeless))
                .isEqualTo("PROPOSED");
    }

    @Test
    void shouldRefuseClearingTheHomeOfAnActivePlacement() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID active = Rows.placement(UUID.randomUUID()).in(home).status("ACTIVE").insert(jdbc);

        assertRefusedWith(HomeGate.NEEDS_HOME,
                () -> jdbc.update("UPDATE placements SET foster_home_id = NULL WHERE id = ?", active));
        assertThat(jdbc.queryForObject("SELECT foster_home_id FROM placements WHERE id = ?", UUID.class, active))
                .isEqualTo(home);
    }

    @Test
    void shouldKeepTheHomeOfAnEndedOrCancelledPlacementAndOfOneBeingEnded() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID elsewhere = Rows.fosterHome().insert(jdbc);
        UUID ended = Rows.placement(UUID.randomUUID()).in(home).status("ENDED").insert(jdbc);
        UUID cancelled = Rows.placement(UUID.randomUUID()).in(home).status("CANCELLED").insert(jdbc);
        UUID active = Rows.placement(UUID.randomUUID()).in(home).status("ACTIVE").insert(jdbc);

        assertRefusedWith(HomeGate.FINAL_KEEPS_HOME,
                () -> jdbc.update("UPDATE placements SET foster_home_id = ? WHERE id = ?", elsewhere, ended));
        assertRefusedWith(HomeGate.FINAL_KEEPS_HOME,
                () -> jdbc.update("UPDATE placements SET foster_home_id = NULL WHERE id = ?", cancelled));
        assertRefusedWith(HomeGate.FINAL_KEEPS_HOME, () -> jdbc.update(
                "UPDATE placements SET status = 'ENDED', foster_home_id = ? WHERE id = ?", elsewhere, active));
        assertThat(jdbc.queryForList("SELECT DISTINCT foster_home_id FROM placements WHERE id IN (?, ?, ?)",
                UUID.class, ended, cancelled, active)).containsExactly(home);
    }

    @Test
    void shouldNotSpeakOfAProposalWhenRefusingAPlacementThatIsNoneInAnUnlicensedHome() {
        UUID revoked = Rows.fosterHome().licenseStatus("REVOKED").insert(jdbc);

        assertThatThrownBy(() -> Rows.placement(UUID.randomUUID()).in(revoked).status("ENDED").insert(jdbc))
                .rootCause().satisfies(cause -> assertThat(cause.getMessage())
                        .contains("ENDED placement").doesNotContain("propos"));
    }

    @Test
    void shouldRefuseActivatingOrMovingAPlacementIntoAHomeOfAnotherJurisdictionThanItsCase() {
        UUID georgiaHome = Rows.fosterHome().jurisdiction("georgia").insert(jdbc);
        UUID texasHome = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        UUID movedCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        UUID leftBehind = Rows.placement(movedCase).in(georgiaHome).insert(jdbc);
        jdbc.update("UPDATE case_assignments SET jurisdiction = 'texas' WHERE case_id = ?", movedCase);
        UUID georgiaCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        UUID active = Rows.placement(georgiaCase).in(georgiaHome).status("ACTIVE").insert(jdbc);

        assertRefusedWith(HomeGate.OTHER_JURISDICTION,
                () -> jdbc.update("UPDATE placements SET status = 'ACTIVE' WHERE id = ?", leftBehind));
        assertRefusedWith(HomeGate.OTHER_JURISDICTION,
                () -> jdbc.update("UPDATE placements SET foster_home_id = ? WHERE id = ?", texasHome, active));
        assertRefusedWith(HomeGate.OTHER_JURISDICTION,
                () -> Rows.placement(georgiaCase).in(texasHome).insert(jdbc));
        assertThat(jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, leftBehind))
                .isEqualTo("PROPOSED");
    }

    @Test
    void shouldKeepAnEndedOrCancelledPlacementFinalSoThatNoTwoStatementsCanRewriteWhereAChildWas() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID elsewhere = Rows.fosterHome().insert(jdbc);
        UUID ended = Rows.placement(UUID.randomUUID()).in(home).status("ENDED").insert(jdbc);
        UUID cancelled = Rows.placement(UUID.randomUUID()).in(home).status("CANCELLED").insert(jdbc);

        assertRefusedWith(HomeGate.FINAL_KEEPS_HOME, () -> jdbc.update(
                "UPDATE placements SET status = 'ACTIVE', foster_home_id = ? WHERE id = ?", elsewhere, ended));
        assertRefusedWith(HomeGate.FINAL_KEEPS_HOME,
                () -> jdbc.update("UPDATE placements SET status = 'PROPOSED' WHERE id = ?", cancelled));
        assertThat(jdbc.queryForList("SELECT status FROM placements WHERE id IN (?, ?) ORDER BY status", String.class,
                ended, cancelled)).containsExactly("CANCELLED", "ENDED");
    }

    @Test
    void shouldRefuseAHomeOfUnknownJurisdictionForACaseWhoseJurisdictionIsKnown() {
        UUID unknownHome = Rows.fosterHome().jurisdiction(null).insert(jdbc);
        UUID georgiaCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        UUID proposed = Rows.placement(georgiaCase).insert(jdbc);

        assertRefusedWith(HomeGate.OTHER_JURISDICTION, () -> jdbc.update(
                "UPDATE placements SET foster_home_id = ?, status = 'ACTIVE' WHERE id = ?", unknownHome, proposed));
    }

    @Test
    void shouldRefuseAnActivationOutsideReadCommittedWhereTheCountCouldMissACommittedActivation() {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        UUID proposed = Rows.placement(UUID.randomUUID()).in(home).insert(jdbc);

        assertRefusedWith(HomeGate.NEEDS_READ_COMMITTED, () -> new TransactionTemplate(
                new DataSourceTransactionManager(DB.dataSource())).executeWithoutResult(status -> {
                    jdbc.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                    jdbc.update("UPDATE placements SET status = 'ACTIVE' WHERE id = ?", proposed);
                }));
        assertThat(jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, proposed))
                .isEqualTo("PROPOSED");
    }

    private static void assertRefusedWith(String sqlState, ThrowingCallable write) {
        assertThatThrownBy(write).rootCause().satisfies(cause -> assertThat(((SQLException) cause).getSQLState())
                .as(cause.getMessage()).isEqualTo(sqlState));
    }
}
