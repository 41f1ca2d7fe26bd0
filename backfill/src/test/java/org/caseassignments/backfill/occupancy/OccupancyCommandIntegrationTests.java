package org.caseassignments.backfill.occupancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.Consumer;

import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.Tables;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import picocli.CommandLine;

@RealDatabaseTest
class OccupancyCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options, foster_homes");
    }

    @Test
    void shouldListEveryRowTheGateWouldRefuseWrittenWithItsTriggersDisabledAndExitOne() {
        // Given a restore that bypassed the gate's triggers, leaving each state the gate refuses
        UUID georgiaCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        UUID full = Rows.fosterHome().capacity(1).insert(jdbc);
        UUID suspended = Rows.fosterHome().licenseStatus("SUSPENDED").insert(jdbc);
        UUID texan = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        UUID ofNoJurisdiction = Rows.fosterHome().jurisdiction(null).insert(jdbc);
        UUID[] placed = new UUID[7];
        asAfterARestore(replica -> {
            placed[0] = Rows.placement(georgiaCase).status("ACTIVE").in(full).insert(replica);
            placed[1] = Rows.placement(georgiaCase).status("ACTIVE").in(full).insert(replica);
            placed[2] = Rows.placement(georgiaCase).status("ACTIVE").insert(replica);
            placed[3] = Rows.placement(georgiaCase).status("ACTIVE").in(suspended).insert(replica);
            placed[4] = Rows.placement(georgiaCase).status("ACTIVE").in(texan).insert(replica);
            placed[5] = Rows.placement(georgiaCase).status("ACTIVE").in(ofNoJurisdiction).insert(replica);
            placed[6] = Rows.placement(georgiaCase).status("PROPOSED").in(texan).insert(replica);
        });
        var before = Tables.withXmin(jdbc);

        // When
        Cli.Run run = cli.run("occupancy");

        // Then each finding is counted, and listed with the ids an operator acts on
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).contains("backfill occupancy: 6 findings break the foster-home gate's rules")
                .containsPattern("homes over capacity\\s+1\\n")
                .containsPattern("ACTIVE without a home\\s+1\\n")
                .containsPattern("ACTIVE in an unlicensed home\\s+1\\n")
                .containsPattern("ACTIVE in a foreign home\\s+2\\n")
                .containsPattern("ACTIVE in a home of unknown jurisdiction\\s+1\\n")
                .containsPattern("PROPOSED in a foreign home\\s+1\\n")
                .contains("home-over-capacity home=" + full + " active=2 capacity=1")
                .contains("active-without-home placement=" + placed[2] + " case=" + georgiaCase)
                .contains("active-in-unlicensed-home placement=" + placed[3] + " case=" + georgiaCase
                        + " home=" + suspended + " license_status=SUSPENDED")
                .contains("active-in-foreign-home placement=" + placed[4] + " case=" + georgiaCase + " home=" + texan
                        + " case_jurisdiction=georgia home_jurisdiction=texas")
                .contains("active-in-foreign-home placement=" + placed[5] + " case=" + georgiaCase + " home="
                        + ofNoJurisdiction + " case_jurisdiction=georgia home_jurisdiction=unknown")
                .contains("home-of-unknown-jurisdiction home=" + ofNoJurisdiction + " placement=" + placed[5]
                        + " case=" + georgiaCase + " case_jurisdiction=georgia")
                .contains("proposed-in-foreign-home placement=" + placed[6] + " case=" + georgiaCase + " home=" + texan
                        + " case_jurisdiction=georgia home_jurisdiction=texas");
        assertThat(Tables.withXmin(jdbc)).as("the check writes nothing").isEqualTo(before);
    }

    @Test
    void shouldExitZeroWhenEveryActivePlacementIsInALicensedHomeOfItsCaseWithRoom() {
        UUID georgiaCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        UUID home = Rows.fosterHome().capacity(2).insert(jdbc);
        UUID unlimited = Rows.fosterHome().capacity(null).insert(jdbc);
        Rows.placement(georgiaCase).status("ACTIVE").in(home).insert(jdbc);
        Rows.placement(georgiaCase).status("ACTIVE").in(home).insert(jdbc);
        Rows.placement(georgiaCase).status("ACTIVE").in(unlimited).insert(jdbc);
        Rows.placement(georgiaCase).status("PROPOSED").insert(jdbc);

        Cli.Run run = cli.run("occupancy");

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).contains("backfill occupancy: every ACTIVE placement is in a licensed home of its "
                + "case's jurisdiction, within capacity").containsPattern("homes over capacity\\s+0\\n");
    }

    @Test
    void shouldListOnlyAsManyLinesPerFindingAsAskedButCountThemAll() {
        UUID georgiaCase = Rows.assignment(UUID.randomUUID()).jurisdiction("georgia").insert(jdbc);
        asAfterARestore(replica -> {
            for (int i = 0; i < 3; i++) {
                Rows.placement(georgiaCase).status("ACTIVE").insert(replica);
            }
        });

        Cli.Run run = cli.run("occupancy", "--max-lines", "2");

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("ACTIVE without a home\\s+3\\n")
                .contains("active-without-home: 1 more not listed (--max-lines 2)");
        assertThat(run.out().lines().filter(line -> line.startsWith("active-without-home placement="))).hasSize(2);
    }

    @Test
    void shouldGiveUpWithinTheLockTimeoutWhenATableItReadsIsHeldAndExitTwo() throws SQLException {
        try (Connection holder = DB.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            holder.createStatement().execute("LOCK TABLE foster_homes IN ACCESS EXCLUSIVE MODE");

            Cli.Run run = cli.run("occupancy", "--lock-timeout", "200ms");

            holder.rollback();
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(run.err()).contains("backfill occupancy: stopped:").contains("lock timeout");
        }
    }

    @Test
    void shouldCancelAQueryThatRunsPastTheStatementTimeoutAndExitTwo() throws SQLException {
        try (Connection holder = DB.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            holder.createStatement().execute("LOCK TABLE placements IN ACCESS EXCLUSIVE MODE");

            Cli.Run run = cli.run("occupancy", "--statement-timeout", "300ms", "--lock-timeout", "1h");

            holder.rollback();
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(run.err()).contains("backfill occupancy: stopped:").contains("statement timeout");
        }
    }

    @Test
    void shouldNameItsExitCodesAndTimeoutsInItsHelp() {
        Cli.Run run = cli.run("occupancy", "--help");

        assertThat(run.out()).contains("--statement-timeout").contains("--lock-timeout")
                .contains("64 bad usage").contains("69 the database");
    }

    /** Writes on one connection with the triggers off, as a restore with {@code session_replication_role} does. */
    private static void asAfterARestore(Consumer<JdbcTemplate> writes) {
        try (Connection connection = DB.dataSource().getConnection()) {
            JdbcTemplate replica = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
            replica.execute("SET session_replication_role = replica");
            try {
                writes.accept(replica);
            } finally {
                replica.execute("RESET session_replication_role");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
