package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

/**
 * The rebuild CLI in a JVM of its own, as an operator runs it: one run at a time (a second run, dry or not, refuses at
 * once and leaves the first one's shadow alone), and a run frozen (SIGSTOP: a paused VM, a stopped job) the moment its
 * swap holds the projection's {@code ACCESS EXCLUSIVE} lock is ended by the database within {@code --swap-within}
 * and a margin, so the projection's readers wait that long at most, not for as long as it stays frozen; thawed, it
 * gives way and swaps on a new session.
 */
@RealDatabaseTest
class RebuildProcessIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final Duration SWAP_WITHIN = Duration.ofSeconds(2);

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    final String topic = TestKafka.uniqueTopic("case.events");
    final UUID caseId = UUID.randomUUID();

    @BeforeEach
    void oneCaseTheEventsTakeToRevisionOne() {
        TestKafka.createTopics(3, topic);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(caseId).worker("w-0").jurisdiction("georgia").build(),
                    CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").jurisdiction("georgia").build()));
        }
        jdbc.execute("DROP TABLE IF EXISTS case_assignments_previous, case_assignments_rebuild, " + ProjectionByHand.ASIDE);
        jdbc.execute("TRUNCATE case_assignments");
    }

    @Test
    void shouldRefuseASecondRunNamingTheFirstWhileTheFirstWaitsToSwapAndLetTheFirstSwapItsOwnShadow() throws Exception {
        // Given the live table holding the case inflated, and a reader holding the projection so that the first
        // rebuild waits for its swap's lock (giving way every 5 s and asking again) with its shadow built
        Rows.assignment(caseId).worker("inflated").revision(7).insert(jdbc);
        try (Connection reader = connection();
             RebuildProcess first = startBehind(reader, "--allow-lower", "--swap-lock-timeout-ms", "5000")) {
            awaitTheSwap(false);
            long shadow = jdbc.queryForObject("SELECT 'case_assignments_rebuild'::regclass::oid::bigint", Long.class);

            // When a dry run and a run allowed to drop and lower rows start meanwhile
            Cli.Run dryRun = new Cli(commandLine).run("rebuild", "--topics", topic, "--progress", "none", "--dry-run");
            Cli.Run partial = new Cli(commandLine).run("rebuild", "--topics", topic, "--progress", "none",
                    "--allow-missing-cases", "--allow-lower");

            // Then each refuses at once, naming the first run, and the first run's shadow is the one it built
            for (Cli.Run second : List.of(dryRun, partial)) {
                assertThat(second.exit()).as(second.toString()).isEqualTo(ExitCodes.ANOTHER_RUN);
                assertThat(second.err()).contains("another rebuild is running").contains("pid " + first.pid());
            }
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild')::oid::bigint", Long.class))
                    .isEqualTo(shadow);

            // And once the reader lets go, the first swaps in the shadow it built
            reader.commit();
            assertThat(first.awaitExit(Duration.ofSeconds(180))).as(first.output()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(jdbc.queryForObject("SELECT 'case_assignments'::regclass::oid::bigint", Long.class)).isEqualTo(shadow);
            assertThat(read(caseId)).isEqualTo("w-1@1");
        }
    }

    @Test
    void shouldLetAProjectionReadThroughWithinTheSwapsBoundWhileTheRebuildIsFrozenHoldingTheLockAndSwapOnceThawed()
            throws Exception {
        // Given a rebuild whose swap is granted the projection's lock and then held up by a lock on its shadow
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        long liveTable = jdbc.queryForObject("SELECT 'case_assignments'::regclass::oid::bigint", Long.class);
        try (Connection projection = connection(); Connection shadow = connection();
             RebuildProcess rebuild = startBehind(projection, "--swap-within", SWAP_WITHIN.toMillis() + "ms",
                     "--swap-lock-timeout-ms", "120000")) {
            awaitTheSwap(false);
            long shadowTable = jdbc.queryForObject("SELECT 'case_assignments_rebuild'::regclass::oid::bigint", Long.class);
            HeldLocks.share(shadow, "case_assignments_rebuild");
            projection.commit();
            int backend = awaitTheSwap(true);
            assertThat(jdbc.queryForObject("SELECT application_name FROM pg_stat_activity WHERE pid = ?", String.class,
                    backend)).as("the swap's session, named as the run's claim is").startsWith("backfill rebuild pid ");

            // When its process is frozen the moment the lock is granted, and the swap's statement can go on
            rebuild.freeze();
            shadow.commit();

            // Then a read of the projection that waits for locks up to 10 s gets through within the swap's bound
            long started = System.nanoTime();
            String read = read(caseId);
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            assertThat(read).isEqualTo("w-1@1");
            assertThat(waited).as("the read's wait behind the frozen swap").isLessThan(SWAP_WITHIN.plusSeconds(3));
            assertThat(jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", Integer.class, backend))
                    .as("the frozen swap's session").isZero();
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();

            // And once thawed the rebuild finds its session ended, gives way, and swaps on a new session, once
            rebuild.thaw();
            assertThat(rebuild.awaitExit(Duration.ofSeconds(180))).as(rebuild.output()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(rebuild.output()).contains("the database ended the swap's session (SQLSTATE ")
                    .contains("the live projection is unchanged; gave way (attempt 1 of 20)")
                    // at least the lost one and the one that swapped: a loaded machine may give way more often
                    .containsPattern("lock attempts\\s+([2-9]|[1-9]\\d+)\\n");
            assertThat(jdbc.queryForObject("SELECT 'case_assignments'::regclass::oid::bigint", Long.class))
                    .isEqualTo(shadowTable);
            assertThat(jdbc.queryForObject("SELECT 'case_assignments_previous'::regclass::oid::bigint", Long.class))
                    .isEqualTo(liveTable);
            assertThat(read(caseId)).isEqualTo("w-1@1");
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild') IS NULL", Boolean.class)).isTrue();
        }
    }

    @Test
    void shouldStopTouchingNothingWhenAnotherTableBecameTheProjectionWhileItsSwapsSessionWasLost() throws Exception {
        // Given a rebuild whose swap is granted the projection's lock and then held up by a lock on its shadow, with a
        // hold long enough that the freeze below comes within it however loaded the machine
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        long liveTable = jdbc.queryForObject("SELECT 'case_assignments'::regclass::oid::bigint", Long.class);
        try (Connection projection = connection(); Connection shadow = connection(); Connection operator = connection();
             RebuildProcess rebuild = startBehind(projection, "--swap-within", "10s", "--swap-lock-timeout", "120s")) {
            awaitTheSwap(false);
            HeldLocks.share(shadow, "case_assignments_rebuild");
            projection.commit();
            int backend = awaitTheSwap(true);

            // When its process is frozen the moment the lock is granted, the database ends the frozen session, and
            // another table is put in the projection's place (a restore by hand) before the process is thawed
            rebuild.freeze();
            shadow.commit();
            Awaitility.await("the frozen swap's session to be ended").atMost(Duration.ofSeconds(60)).until(() ->
                    jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", Integer.class, backend) == 0);
            long restored = ProjectionByHand.replace(operator);
            rebuild.thaw();

            // Then the rebuild finds its session ended and the projection another table: it stops, saying so, and does
            // not swap that table away
            assertThat(rebuild.awaitExit(Duration.ofSeconds(180))).as(rebuild.output()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(rebuild.output()).contains("case_assignments is not the table this run began with (another took "
                    + "its place: oid " + restored + ", not " + liveTable).contains("the database ended the swap's session")
                    .doesNotContain("gave way");
            assertThat(jdbc.queryForObject("SELECT 'case_assignments'::regclass::oid::bigint", Long.class)).isEqualTo(restored);
            assertThat(jdbc.queryForObject("SELECT '" + ProjectionByHand.ASIDE + "'::regclass::oid::bigint", Long.class))
                    .isEqualTo(liveTable);
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
            assertThat(read(caseId)).isEqualTo("w-1@1");
        }
    }

    /** A rebuild that will wait for its swap's lock behind {@code projection}, held in an open transaction. */
    private RebuildProcess startBehind(Connection projection, String... options) throws Exception {
        HeldLocks.share(projection, "case_assignments");
        List<String> arguments = new java.util.ArrayList<>(List.of("rebuild", "--topics", topic, "--progress", "none"));
        arguments.addAll(List.of(options));
        return RebuildProcess.start(DB, arguments.toArray(String[]::new));
    }

    /** The backend pid of the swap once its ACCESS EXCLUSIVE lock on the projection is waited for or granted. */
    private int awaitTheSwap(boolean granted) {
        return HeldLocks.projectionLock(jdbc, granted, false);
    }

    /** The case's row as a reader of the projection sees it, waiting at most 10 s for locks (the API's bound). */
    private static String read(UUID caseId) throws Exception {
        try (Connection reader = connection(); Statement statement = reader.createStatement()) {
            statement.execute("SET lock_timeout = '10s'");
            try (ResultSet rs = statement.executeQuery("SELECT assigned_worker_sub || '@' || assignment_revision "
                    + "FROM case_assignments WHERE case_id = '" + caseId + "'")) {
                return rs.next() ? rs.getString(1) : "none";
            }
        }
    }

    private static Connection connection() throws Exception {
        return DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password());
    }
}
