package org.caseassignments.backfill.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.Tables;
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
class VerifyCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    @TempDir
    Path dir;

    final JdbcTemplate jdbc = DB.jdbc();
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options");
    }

    @Test
    void shouldReportEachKindOfDifferenceWithASampleAndExitOne() throws IOException {
        // Given a projection that agrees on one case and differs on the others in every way
        UUID agree = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(4).insert(jdbc);
        UUID absent = UUID.randomUUID();
        UUID placeholder = Rows.assignment(UUID.randomUUID()).placeholder().insert(jdbc);
        UUID behind = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(3).insert(jdbc);
        UUID behindToo = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(1).insert(jdbc);
        UUID ahead = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(9).insert(jdbc);
        UUID diverging = Rows.assignment(UUID.randomUUID()).worker("w-live").supervisor("s").revision(4).insert(jdbc);
        Path snapshot = csv(List.of(agree, absent, placeholder, behind, behindToo, ahead, diverging), 4);
        var before = Tables.withXmin(jdbc);

        // When
        Cli.Run run = cli.run("verify", "--file", snapshot.toString(), "--sample", "1", "--batch-size", "3",
                "--rejects", dir.resolve("r.csv").toString());

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).contains("differences found")
                .containsPattern("read\\s+7\\n").containsPattern("agree\\s+1\\n").containsPattern("missing\\s+2\\n")
                .containsPattern("behind\\s+2\\n").containsPattern("ahead\\s+1\\n")
                .containsPattern("diverging at equal revision\\s+1\\n")
                .containsPattern("ahead\\s+" + ahead + "  snapshot r4 \\(w, s\\)  projection r9 \\(w, s\\)")
                .containsPattern("diverging at equal revision\\s+" + diverging + "  snapshot r4 \\(w, s\\)  projection r4 \\(w-live, s\\)");
        assertThat(run.out().lines().filter(line -> line.matches("\\s+behind\\s+[0-9a-f-]{36}.*"))).as("sample of 1").hasSize(1);
        assertThat(run.out().lines().filter(line -> line.matches("\\s+missing\\s+[0-9a-f-]{36}.*"))).hasSize(1);
        assertThat(Tables.withXmin(jdbc)).as("verify writes nothing").isEqualTo(before);
    }

    @Test
    void shouldExitZeroOnlyWhenTheProjectionAgrees() throws IOException {
        UUID a = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(4).insert(jdbc);
        UUID b = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(4).insert(jdbc);

        Cli.Run agreeing = cli.run("verify", "--file", csv(List.of(a, b), 4).toString(), "--rejects", dir.resolve("r.csv").toString());
        Path withBadRow = csv(List.of(a), 4);
        Files.writeString(withBadRow, "nope,w,s,4\n", java.nio.file.StandardOpenOption.APPEND);
        Cli.Run rejected = cli.run("verify", "--file", withBadRow.toString(), "--rejects", dir.resolve("r.csv").toString());
        Cli.Run noSource = cli.run("verify");

        assertThat(agreeing.exit()).as(agreeing.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(agreeing.out()).contains("the projection agrees with the snapshot").containsPattern("agree\\s+2\\n");
        assertThat(rejected.exit()).as("an unreadable row is not agreement").isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(noSource.exit()).as("no snapshot source is bad usage").isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void shouldReportEntityCopiesThatDifferFromTheirCaseEvenWhenTheProjectionAgrees() throws IOException {
        // Given a projection that agrees with the snapshot, and copies behind, at another pair and ahead of their case
        UUID caseId = Rows.assignment(UUID.randomUUID()).worker("w").supervisor("s").revision(4).insert(jdbc);
        Rows.placement(caseId).worker("w-old").supervisor("s").revision(2).insert(jdbc);
        Rows.kinshipOption(caseId).worker("other").supervisor("s").revision(4).insert(jdbc);
        Rows.kinshipOption(caseId).worker("w").supervisor("s").revision(6).insert(jdbc);

        // When
        Cli.Run run = cli.run("verify", "--file", csv(List.of(caseId), 4).toString(), "--rejects",
                dir.resolve("r.csv").toString());

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("agree\\s+1\\n").containsPattern("placements behind\\s+1\\n")
                .containsPattern("kinship, same revision, other pair\\s+1\\n")
                .containsPattern("kinship options ahead \\(never lowered\\)\\s+1\\n");
    }

    private Path csv(List<UUID> cases, long revision) throws IOException {
        List<String> lines = new ArrayList<>(List.of("case_id,assigned_worker_sub,supervisor_sub,assignment_revision"));
        cases.forEach(id -> lines.add(id + ",w,s," + revision));
        Path file = Files.createTempFile(dir, "snapshot", ".csv");
        Files.write(file, lines);
        return file;
    }
}
