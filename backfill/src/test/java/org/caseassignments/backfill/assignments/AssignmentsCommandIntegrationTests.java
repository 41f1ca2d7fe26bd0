package org.caseassignments.backfill.assignments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.backfill.Tables;
import org.caseassignments.backfill.snapshot.SourceIdentity;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

@RealDatabaseTest
class AssignmentsCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final String HEADER = "case_id,assigned_worker_sub,supervisor_sub,assignment_revision";

    @Autowired
    CommandLine commandLine;

    @TempDir
    Path dir;

    final JdbcTemplate jdbc = DB.jdbc();
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        jdbc.execute("TRUNCATE case_assignments, case_assignment_history, placements, kinship_options");
    }

    @Test
    void shouldApplyTheGuardToEachStoredStateAndCountEveryOutcome() throws IOException {
        // Given one case per stored state, each with a placement and a kinship row copying it
        UUID absent = UUID.randomUUID();
        UUID placeholder = Rows.assignment(UUID.randomUUID()).placeholder().insert(jdbc);
        UUID lower = Rows.assignment(UUID.randomUUID()).worker("w-old").supervisor("s-old").revision(3).insert(jdbc);
        UUID equalSame = Rows.assignment(UUID.randomUUID()).worker("w-snap").supervisor("s-snap").revision(5).insert(jdbc);
        UUID equalOther = Rows.assignment(UUID.randomUUID()).worker("w-live").supervisor("s-snap").revision(5).insert(jdbc);
        UUID higher = Rows.assignment(UUID.randomUUID()).worker("w-new").supervisor("s-new").revision(8).insert(jdbc);
        entityRows(absent, null, null, 0);
        entityRows(placeholder, null, null, 0);
        entityRows(lower, "w-old", "s-old", 3);
        entityRows(equalSame, "w-snap", "s-snap", 5);
        entityRows(equalOther, "w-live", "s-snap", 5);
        entityRows(higher, "w-new", "s-new", 8);
        Path snapshot = csv(java.util.stream.Stream.of(absent, placeholder, lower, equalSame, equalOther, higher)
                .map(id -> id + ",w-snap,s-snap,5").toList());

        // When
        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--rejects", dir.resolve("r.csv").toString());

        // Then every case ends at the newest of the stored state and the snapshot row, entity rows alike
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).containsPattern("read\\s+6\\n").containsPattern("inserted\\s+1\\n")
                .containsPattern("advanced\\s+2\\n").containsPattern("converged at equal revision\\s+1\\n")
                .containsPattern("unchanged\\s+1\\n").containsPattern("skipped as older\\s+1\\n")
                .containsPattern("rejected\\s+0\\n");
        for (UUID caseId : List.of(absent, placeholder, lower, equalSame, equalOther)) {
            assertThat(state(caseId)).as("case stored %s", caseId).containsExactly("w-snap", "s-snap", 5L, "w-snap", "s-snap", 5L,
                    "w-snap", "s-snap", 5L);
        }
        assertThat(state(higher)).containsExactly("w-new", "s-new", 8L, "w-new", "s-new", 8L, "w-new", "s-new", 8L);
        assertThat(rowVersions(equalSame)).as("nothing to do, nothing written").containsOnly(1L);
        assertThat(rowVersions(higher)).containsOnly(1L);
        assertThat(rowVersions(equalOther)).as("converged rows are new versions").containsOnly(2L);
        assertThat(rowVersions(lower)).containsOnly(2L);
        // and the history holds the snapshot's revision of every case, also where the projection was newer, with no
        // time (a snapshot row has none)
        assertThat(Tables.history(jdbc)).containsExactlyInAnyOrderElementsOf(java.util.stream.Stream.of(absent,
                placeholder, lower, equalSame, equalOther, higher).map(id -> id + "@5 w-snap/s-snap").toList());
        assertThat(jdbc.queryForObject("SELECT count(occurred_at) FROM case_assignment_history", Long.class)).isZero();
    }

    @Test
    void shouldWriteBadRowsToTheRejectsFileWithLineNumbersAndApplyTheGoodRowsAroundThem() throws IOException {
        // Given a snapshot with good rows around bad ones, in batches of two
        UUID first = UUID.randomUUID();
        UUID middle = UUID.randomUUID();
        UUID last = UUID.randomUUID();
        Path snapshot = csv(List.of(
                first + ",w-1,,1",                         // line 2: good, no supervisor
                "not-a-uuid,w,s,1",                        // line 3
                middle + ",w-2,s-2,2",                     // line 4: good
                UUID.randomUUID() + ",w,s,-4",             // line 5
                UUID.randomUUID() + ",w,s",                // line 6
                UUID.randomUUID() + ",w,s,two",            // line 7
                "1-2-3-4-5,w,s,1",                         // line 8: a short form is not a case id
                last + ",w-3,s-3,3"));                     // line 9: good
        Path rejects = dir.resolve("rejects.csv");

        // When
        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "2", "--rejects", rejects.toString());

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("read\\s+8\\n").containsPattern("inserted\\s+3\\n").containsPattern("rejected\\s+5\\n");
        assertThat(Files.readAllLines(rejects)).satisfiesExactly(
                header -> assertThat(header).isEqualTo("line,reason,message,record"),
                line -> assertThat(line).startsWith("3,INVALID_CASE_ID,").contains("not-a-uuid"),
                line -> assertThat(line).startsWith("5,NEGATIVE_REVISION,"),
                line -> assertThat(line).startsWith("6,MISSING_COLUMN,").contains("assignment_revision"),
                line -> assertThat(line).startsWith("7,INVALID_REVISION,").contains("two"),
                line -> assertThat(line).startsWith("8,INVALID_CASE_ID,").contains("1-2-3-4-5"));
        assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id"))
                .containsExactlyInAnyOrder(first, middle, last);
        assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", first))
                .containsEntry("assigned_worker_sub", "w-1").containsEntry("supervisor_sub", null);
    }

    @Test
    void shouldFillInTheJurisdictionOfCasesProjectedWithoutOneAndRejectAMalformedJurisdiction() throws IOException {
        // Given cases projected before their jurisdiction was known, one of them already converged
        UUID unknown = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(3).jurisdiction(null).insert(jdbc);
        UUID known = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(3).jurisdiction("texas").insert(jdbc);
        UUID bad = UUID.randomUUID();
        Path snapshot = Files.createTempFile(dir, "snapshot", ".csv");
        Files.write(snapshot, List.of("case_id,assigned_worker_sub,supervisor_sub,assignment_revision,jurisdiction",
                unknown + ",w,s,3,georgia",
                known + ",w,s,3,",
                bad + ",w,s,1,Georgia"));
        Path rejects = dir.resolve("rejects.csv");

        // When
        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--rejects", rejects.toString());

        // Then the unknown one is filled in at its revision, an empty field keeps the known one
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", unknown))
                .containsEntry("jurisdiction", "georgia").containsEntry("assignment_revision", 3L);
        assertThat(jdbc.queryForObject("SELECT jurisdiction FROM case_assignments WHERE case_id = ?", String.class, known))
                .isEqualTo("texas");
        assertThat(Files.readAllLines(rejects)).hasSize(2).last().asString().startsWith("4,INVALID_JURISDICTION,");
    }

    @Test
    void shouldRejectRowsPostgresqlRefusesWithTheirLineNumbersAndFinishTheLoad() throws IOException {
        // Given a database that refuses one value (as PostgreSQL refuses a NUL or a too long string), and a
        // snapshot where two rows carry it, one beside a row that is bad on its own, in batches of three
        jdbc.execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
        try {
            UUID first = UUID.randomUUID();
            UUID refused = UUID.randomUUID();
            UUID middle = UUID.randomUUID();
            UUID last = UUID.randomUUID();
            Path snapshot = csv(List.of(
                    first + ",w-1,s,1",                       // line 2: good
                    refused + ",poison,s,1",                  // line 3: PostgreSQL refuses it
                    "not-a-uuid,w,s,1",                       // line 4: bad on its own
                    middle + ",w-2,s,2",                      // line 5: good
                    UUID.randomUUID() + ",poison,,7",         // line 6: PostgreSQL refuses it
                    last + ",w-3,s,3"));                      // line 7: good
            Path rejects = dir.resolve("rejects.csv");
            Path checkpoint = dir.resolve("checkpoint.json");

            // When
            Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "3",
                    "--rejects", rejects.toString(), "--checkpoint", checkpoint.toString());

            // Then the load finishes, every good row is applied, and the refused rows are listed in line order
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(run.out()).containsPattern("read\\s+6\\n").containsPattern("inserted\\s+3\\n")
                    .containsPattern("superseded within a batch\\s+0\\n").containsPattern("rejected\\s+3\\n");
            assertThat(Files.readAllLines(rejects)).satisfiesExactly(
                    header -> assertThat(header).isEqualTo("line,reason,message,record"),
                    line -> assertThat(line).startsWith("3,DATABASE_INTEGRITY_VIOLATION,").contains("23514", "test_reject",
                            refused + ",poison,s,1"),
                    line -> assertThat(line).startsWith("4,INVALID_CASE_ID,"),
                    line -> assertThat(line).startsWith("6,DATABASE_INTEGRITY_VIOLATION,"));
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id"))
                    .containsExactlyInAnyOrder(first, middle, last);
            assertThat(Checkpoint.read(checkpoint).complete()).isTrue();
            assertThat(Checkpoint.read(checkpoint).rejectsBytes()).isEqualTo(Files.size(rejects));
        } finally {
            jdbc.execute("ALTER TABLE case_assignments DROP CONSTRAINT test_reject");
        }
    }

    @Test
    void shouldRejectTheRowATriggerRefusesOnEveryAttemptAndWriteTheNineGoodRows() throws IOException {
        // Given a trigger that refuses one worker (P0001), and a snapshot of ten rows, one of them carrying it
        try (RefusingTrigger trigger = RefusingTrigger.refusing(jdbc, "poison")) {
            List<UUID> good = new java.util.ArrayList<>();
            List<String> rows = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                UUID caseId = UUID.randomUUID();
                rows.add(caseId + "," + (i == 4 ? "poison" : "w-" + i) + ",s,1");
                if (i != 4) {
                    good.add(caseId);
                }
            }
            Path rejects = dir.resolve("rejects.csv");

            // When
            Cli.Run run = cli.run("assignments", "--file", csv(rows).toString(), "--rejects", rejects.toString());

            // Then the load retried the batch, isolated the refused row and wrote the other nine
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
            assertThat(run.out()).containsPattern("inserted\\s+9\\n").containsPattern("rejected\\s+1\\n");
            assertThat(Files.readAllLines(rejects)).hasSize(2).last().asString()
                    .startsWith("6,DATABASE_ROW_REFUSED,").contains("P0001");
            assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactlyInAnyOrderElementsOf(good);
        }
    }

    @Test
    void shouldReadJsonLinesAndRejectLinesThatAreNotSnapshotRows() throws IOException {
        UUID good = UUID.randomUUID();
        UUID alsoGood = UUID.randomUUID();
        Path snapshot = dir.resolve("snap.jsonl");
        Files.write(snapshot, List.of(
                "{\"case_id\":\"" + good + "\",\"assigned_worker_sub\":\"w\",\"supervisor_sub\":null,\"assignment_revision\":4}",
                "",
                "{\"case_id\":\"" + UUID.randomUUID() + "\",\"assigned_worker_sub\":\"w\",\"assignment_revision\":4}",
                "{not json",
                "{\"case_id\":\"" + UUID.randomUUID() + "\",\"assigned_worker_sub\":\"w\",\"supervisor_sub\":\"s\",\"assignment_revision\":4.5}",
                "{\"case_id\":\"" + alsoGood + "\",\"assigned_worker_sub\":\"w\",\"supervisor_sub\":\"s\",\"assignment_revision\":\"7\"}"));
        Path rejects = dir.resolve("rejects.csv");

        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--rejects", rejects.toString());

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(Files.readAllLines(rejects)).extracting(line -> line.split(",")[0] + "," + line.split(",")[1])
                .containsExactly("line,reason", "3,MISSING_COLUMN", "4,INVALID_JSON", "5,INVALID_REVISION");
        assertThat(jdbc.queryForList("SELECT assignment_revision FROM case_assignments ORDER BY assignment_revision", Long.class))
                .containsExactly(4L, 7L);
    }

    @Test
    void shouldRejectSubjectsPostgreSQLCannotStoreWithTheirLineAndApplyTheRowsAroundThem() throws IOException {
        // Given JSON Lines whose subjects hold a NUL, an unpaired surrogate, or too many characters
        UUID good = UUID.randomUUID();
        UUID alsoGood = UUID.randomUUID();
        Path snapshot = dir.resolve("text.jsonl");
        Files.write(snapshot, List.of(
                row(good, "\"w\"", 1),
                row(UUID.randomUUID(), "\"w\\u0000x\"", 1),
                row(UUID.randomUUID(), "\"w\\ud800\"", 1),
                row(UUID.randomUUID(), "\"" + "w".repeat(256) + "\"", 1),
                row(alsoGood, "\"" + "w".repeat(255) + "\"", 2)));
        Path rejects = dir.resolve("rejects.csv");

        // When
        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "2", "--rejects", rejects.toString());

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(Files.readAllLines(rejects)).satisfiesExactly(
                header -> assertThat(header).isEqualTo("line,reason,message,record"),
                line -> assertThat(line).startsWith("2,INVALID_TEXT,").contains("NUL character"),
                line -> assertThat(line).startsWith("3,INVALID_TEXT,").contains("unpaired surrogate"),
                line -> assertThat(line).startsWith("4,INVALID_TEXT,").contains("256 characters"));
        assertThat(jdbc.queryForList("SELECT case_id FROM case_assignments", UUID.class))
                .containsExactlyInAnyOrder(good, alsoGood);
    }

    private static String row(UUID caseId, String workerJson, long revision) {
        return "{\"case_id\":\"" + caseId + "\",\"assigned_worker_sub\":" + workerJson
                + ",\"supervisor_sub\":\"s\",\"assignment_revision\":" + revision + "}";
    }

    @Test
    void shouldReadAQueryOnAReadOnlyConnectionToTheCaseServiceDatabase() {
        // Given the case service's own database
        TestDatabase caseService = TestDatabase.empty();
        JdbcTemplate source = caseService.jdbc();
        source.execute("CREATE TABLE cases (id uuid PRIMARY KEY, worker text, supervisor text, revision bigint)");
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        source.update("INSERT INTO cases VALUES (?, 'w-a', 's-a', 2), (?, NULL, 's-b', 0)", a, b);
        String query = "SELECT id AS case_id, worker AS assigned_worker_sub, supervisor AS supervisor_sub, "
                + "revision AS assignment_revision FROM cases ORDER BY id";

        // When
        Cli.Run run = cli.run("assignments", "--jdbc-url", caseService.jdbcUrl(), "--jdbc-user", caseService.username(),
                "--jdbc-password", caseService.password(), "--query", query, "--fetch-size", "1");
        Cli.Run write = cli.run("assignments", "--jdbc-url", caseService.jdbcUrl(), "--jdbc-user", caseService.username(),
                "--jdbc-password", caseService.password(), "--query", "DELETE FROM cases RETURNING id AS case_id, "
                        + "worker AS assigned_worker_sub, supervisor AS supervisor_sub, revision AS assignment_revision");

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(Tables.projection(jdbc)).hasSize(2);
        assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", b))
                .containsEntry("assigned_worker_sub", null).containsEntry("assignment_revision", 0L);
        assertThat(write.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(write.err()).contains("read-only");
        assertThat(source.queryForObject("SELECT count(*) FROM cases", Integer.class)).isEqualTo(2);
    }

    @Test
    void shouldReportWhatADryRunWouldChangeAndWriteNothing() throws IOException {
        UUID stored = Rows.assignment(UUID.randomUUID()).worker("w-old").revision(1).insert(jdbc);
        Rows.placement(stored).worker("w-old").revision(1).insert(jdbc);
        Path snapshot = csv(List.of(stored + ",w-new,s,2", UUID.randomUUID() + ",w,s,0"));
        List<Map<String, Object>> before = Tables.withXmin(jdbc);

        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--dry-run",
                "--rejects", dir.resolve("r.csv").toString());

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(run.out()).startsWith("dry run").containsPattern("inserted\\s+1\\n").containsPattern("advanced\\s+1\\n")
                .containsPattern("placement/kinship rows updated\\s+1\\n");
        assertThat(Tables.withXmin(jdbc)).isEqualTo(before);
    }

    @Test
    void shouldStopAtMaxErrorsAfterApplyingTheGoodRowsItRead() throws IOException {
        UUID good = UUID.randomUUID();
        Path snapshot = csv(List.of(good + ",w,s,1", "x,w,s,1", "y,w,s,1", UUID.randomUUID() + ",w,s,1"));

        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--max-errors", "1",
                "--rejects", dir.resolve("r.csv").toString());

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("2 rejected rows exceed --max-errors 1");
        assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactly(good);
    }

    @Test
    void shouldStopAtBrokenQuotingAfterApplyingTheRowsBeforeIt() throws IOException {
        UUID before = UUID.randomUUID();
        Path snapshot = csv(List.of(before + ",w,s,1", "\"" + UUID.randomUUID() + "\"x,w,s,1", UUID.randomUUID() + ",w,s,1"));

        Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--rejects", dir.resolve("r.csv").toString());

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("line 3");
        assertThat(Tables.projection(jdbc)).extracting(row -> row.get("case_id")).containsExactly(before);
    }

    @Test
    void shouldExit64OnBadUsageAndTwoOnASnapshotThatCannotBeRead() throws IOException {
        Path noRevision = dir.resolve("no-revision.csv");
        Files.write(noRevision, List.of("case_id,assigned_worker_sub,supervisor_sub", UUID.randomUUID() + ",w,s"));

        assertThat(cli.run("assignments").exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("assignments", "--file", "a.csv", "--jdbc-url", "jdbc:postgresql://x/y", "--query", "q").exit())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("assignments", "--file", "a.csv", "--dry-run", "--checkpoint", "c.json").exit())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("assignments", "--file", "a.csv", "--batch-size", "0").exit()).isEqualTo(ExitCodes.USAGE);
        Cli.Run missing = cli.run("assignments", "--file", dir.resolve("absent.csv").toString());
        assertThat(missing.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(missing.err()).contains("does not exist");
        Cli.Run header = cli.run("assignments", "--file", noRevision.toString());
        assertThat(header.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(header.err()).contains("the header lacks assignment_revision");
        Cli.Run help = cli.run("assignments", "--help");
        assertThat(help.exit()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(help.out()).contains("--batch-size", "--dry-run", "--checkpoint", "--resume-from", "--max-errors",
                "--rejects", "--jdbc-url", "Exit codes");
    }

    @Test
    void shouldEndAnInterruptedRunResumedFromItsCheckpointInTheStateOfAnUninterruptedRun() throws IOException {
        // Given a seeded projection and a snapshot of 40 rows, every fifth one bad
        List<UUID> cases = java.util.stream.IntStream.range(0, 40).mapToObj(i -> UUID.randomUUID()).toList();
        List<UUID> placementIds = cases.stream().map(c -> UUID.randomUUID()).toList();
        List<String> rows = new java.util.ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            rows.add(i % 5 == 4 ? cases.get(i) + ",w,s,-1" : cases.get(i) + ",w-" + i + ",s,3");
        }
        Path snapshot = csv(rows);
        seed(cases, placementIds);
        Cli.Run uninterrupted = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "7",
                "--checkpoint", dir.resolve("whole.json").toString(), "--rejects", dir.resolve("whole-rejects.csv").toString());
        List<Map<String, Object>> expectedProjection = Tables.projection(jdbc);
        List<Map<String, Object>> expectedEntities = Tables.entityRows(jdbc);
        clean();
        seed(cases, placementIds);
        Path checkpoint = dir.resolve("checkpoint.json");
        Path rejects = dir.resolve("rejects.csv");

        // When a run stops after two batches, and a crash after reading the next batch left a reject behind the checkpoint
        Cli.Run interrupted = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "7", "--max-batches", "2",
                "--checkpoint", checkpoint.toString(), "--rejects", rejects.toString());
        long projectedAfterInterruption = Tables.projection(jdbc).stream().filter(r -> "s".equals(r.get("supervisor_sub"))).count();
        Files.writeString(rejects, "99,NEGATIVE_REVISION,never committed,x\n", java.nio.file.StandardOpenOption.APPEND);
        Cli.Run resumed = cli.run("assignments", "--file", snapshot.toString(), "--batch-size", "7",
                "--checkpoint", checkpoint.toString());

        // Then
        assertThat(uninterrupted.exit()).as(uninterrupted.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(interrupted.exit()).as(interrupted.toString()).isEqualTo(ExitCodes.STOPPED_BEFORE_THE_END);
        assertThat(projectedAfterInterruption).as("two batches of 7 good rows").isEqualTo(14);
        assertThat(resumed.exit()).as(resumed.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(resumed.out()).contains("resuming after line 18 (17 records done)").containsPattern("read\\s+40\\n")
                .containsPattern("rejected\\s+8\\n");
        assertThat(counts(resumed)).as("the resumed run reports the whole run").isEqualTo(counts(uninterrupted));
        assertThat(Tables.projection(jdbc)).isEqualTo(expectedProjection);
        assertThat(Tables.entityRows(jdbc)).isEqualTo(expectedEntities);
        assertThat(Files.readAllLines(rejects)).isEqualTo(Files.readAllLines(dir.resolve("whole-rejects.csv")));
        assertThat(Checkpoint.read(checkpoint).complete()).isTrue();
    }

    @Test
    void shouldRefuseToResumeFromTheCheckpointOfAnotherSnapshot() throws IOException {
        Path checkpoint = checkpointOfAnUnfinishedRun();

        Cli.Run other = cli.run("assignments", "--file", csv(List.of(UUID.randomUUID() + ",w,s,1")).toString(),
                "--resume-from", checkpoint.toString());

        assertThat(other.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(other.err()).contains("cannot resume from checkpoint").contains("belongs to");
    }

    @Test
    void shouldRefuseTheCheckpointOfAnotherSourceWithoutPrintingTheCredentialsItsDescriptionHolds() throws IOException {
        // Given a checkpoint whose source description holds credentials, as one written before they were redacted
        Path checkpoint = checkpointOfAnUnfinishedRun();
        Checkpoint written = Checkpoint.read(checkpoint);
        new Checkpoint(new SourceIdentity("jdbc jdbc:postgresql://reader:userinfo-s3cret@cases-db/cases"
                + "?password=parameter-s3cret&sslmode=verify-full query SELECT * FROM cases_via('http://svc:registry-s3cret@registry:8081')",
                -1, -1), written.recordsDone(), written.lastLine(), written.rejectsFile(), written.rejectsBytes(),
                written.batches(), written.tally(), false, written.writtenAt()).write(checkpoint);

        // When a run over another snapshot is pointed at it
        Cli.Run other = cli.run("assignments", "--file", csv(List.of(UUID.randomUUID() + ",w,s,1")).toString(),
                "--checkpoint", checkpoint.toString());

        // Then it refuses, naming the checkpoint's source without its secrets
        assertThat(other.exit()).as(other.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(other.err()).contains("cannot resume from checkpoint", "belongs to", "reader:***@cases-db",
                "sslmode=verify-full", "svc:***@registry:8081");
        assertThat(other.out() + other.err()).doesNotContain("userinfo-s3cret", "parameter-s3cret", "registry-s3cret");
    }

    @Test
    void shouldResumeFromACheckpointThatHoldsItsSourcesPasswordAndRewriteItRedacted() throws IOException {
        // Given a run over the case service's database, with the password in the URL, stopped after its first row
        TestDatabase caseService = TestDatabase.empty();
        caseService.jdbc().execute("CREATE TABLE cases (id uuid PRIMARY KEY, worker text, supervisor text, revision bigint)");
        caseService.jdbc().update("INSERT INTO cases VALUES (?, 'w-a', 's-a', 1), (?, 'w-b', 's-b', 1)",
                UUID.randomUUID(), UUID.randomUUID());
        String url = caseService.jdbcUrl() + (caseService.jdbcUrl().contains("?") ? "&" : "?") + "password="
                + caseService.password();
        String query = "SELECT id AS case_id, worker AS assigned_worker_sub, supervisor AS supervisor_sub, "
                + "revision AS assignment_revision FROM cases ORDER BY id";
        Path checkpoint = dir.resolve("checkpoint.json");
        String[] run = {"assignments", "--jdbc-url", url, "--jdbc-user", caseService.username(), "--query", query,
                "--batch-size", "1", "--checkpoint", checkpoint.toString(), "--rejects", dir.resolve("r.csv").toString()};
        Cli.Run first = cli.run(Stream.concat(Stream.of(run), Stream.of("--max-batches", "1")).toArray(String[]::new));
        assertThat(first.exit()).as(first.toString()).isEqualTo(ExitCodes.STOPPED_BEFORE_THE_END);
        // and its checkpoint written as it was before the URL was redacted
        Checkpoint written = Checkpoint.read(checkpoint);
        new Checkpoint(new SourceIdentity("jdbc " + url + " query " + query, -1, -1), written.recordsDone(),
                written.lastLine(), written.rejectsFile(), written.rejectsBytes(), written.batches(), written.tally(),
                false, written.writtenAt()).write(checkpoint);

        // When the run is resumed from it
        Cli.Run resumed = cli.run(run);

        // Then it continues after the first row, and the checkpoint no longer holds the password
        assertThat(resumed.exit()).as(resumed.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(Tables.projection(jdbc)).hasSize(2);
        assertThat(Files.readString(checkpoint)).doesNotContain("password=" + caseService.password())
                .contains("password=***");
    }

    @Test
    void shouldTakeTheProgressIntervalInTheOneDurationSyntaxAndRefuseABareNumber() throws IOException {
        Path snapshot = csv(List.of(UUID.randomUUID() + ",w,s,1"));
        String rejects = dir.resolve("r.csv").toString();

        for (String interval : List.of("30s", "PT30S", "500ms")) {
            Cli.Run run = cli.run("assignments", "--file", snapshot.toString(), "--rejects", rejects, "--progress", "lines",
                    "--progress-interval", interval);
            assertThat(run.exit()).as(interval + ": " + run).isEqualTo(ExitCodes.SUCCESS);
        }
        Cli.Run bare = cli.run("assignments", "--file", snapshot.toString(), "--rejects", rejects, "--progress", "lines",
                "--progress-interval", "30");
        assertThat(bare.exit()).as(bare.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(bare.err()).contains("--progress-interval", "'30' has no unit", "30s");
        assertThat(cli.run("assignments", "--help").out()).contains("--progress-interval=DURATION");
    }

    /** The checkpoint of a run over a snapshot of two rows, stopped after the first. */
    private Path checkpointOfAnUnfinishedRun() throws IOException {
        Path checkpoint = dir.resolve("checkpoint.json");
        cli.run("assignments", "--file", csv(List.of(UUID.randomUUID() + ",w,s,1", UUID.randomUUID() + ",w,s,1")).toString(),
                "--batch-size", "1", "--max-batches", "1", "--checkpoint", checkpoint.toString(),
                "--rejects", dir.resolve("r.csv").toString());
        return checkpoint;
    }

    private static List<String> counts(Cli.Run run) {
        return run.out().lines().filter(line -> line.matches("  [a-z/ ]+\\s+[0-9,]+")).toList();
    }

    private void seed(List<UUID> cases, List<UUID> placementIds) {
        for (int i = 0; i < cases.size(); i++) {
            if (i % 3 != 0) {
                Rows.assignment(cases.get(i)).worker("w-seed").supervisor("s-seed").revision(2).insert(jdbc);
            }
            Rows.placement(cases.get(i)).id(placementIds.get(i)).worker("w-seed").supervisor("s-seed").revision(i % 3 == 0 ? 0 : 2)
                    .insert(jdbc);
        }
    }

    private Path csv(List<String> rows) throws IOException {
        Path file = Files.createTempFile(dir, "snapshot", ".csv");
        Files.write(file, java.util.stream.Stream.concat(java.util.stream.Stream.of(HEADER), rows.stream()).toList());
        return file;
    }

    private void entityRows(UUID caseId, String worker, String supervisor, long revision) {
        Rows.placement(caseId).worker(worker).supervisor(supervisor).revision(revision).insert(jdbc);
        Rows.kinshipOption(caseId).worker(worker).supervisor(supervisor).revision(revision).insert(jdbc);
    }

    /** projection worker, supervisor, revision, then the placement's, then the kinship row's. */
    private List<Object> state(UUID caseId) {
        Map<String, Object> p = jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", caseId);
        Map<String, Object> pl = jdbc.queryForMap("SELECT * FROM placements WHERE case_id = ?", caseId);
        Map<String, Object> k = jdbc.queryForMap("SELECT * FROM kinship_options WHERE case_id = ?", caseId);
        return java.util.Arrays.asList(p.get("assigned_worker_sub"), p.get("supervisor_sub"), p.get("assignment_revision"),
                pl.get("assigned_worker_sub"), pl.get("supervisor_sub"), pl.get("assignment_revision"),
                k.get("assigned_worker_sub"), k.get("supervisor_sub"), k.get("assignment_revision"));
    }

    private List<Long> rowVersions(UUID caseId) {
        return jdbc.queryForList("""
                SELECT row_version FROM placements WHERE case_id = ?
                UNION ALL SELECT row_version FROM kinship_options WHERE case_id = ?
                """, Long.class, caseId, caseId);
    }
}
