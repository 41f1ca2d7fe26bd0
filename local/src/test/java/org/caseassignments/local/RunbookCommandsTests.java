package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunbookCommandsTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void shouldTakeEveryBashAndSqlBlockAndLeaveOutOnlyAnAnnotatedBlock() throws Exception {
        // Given a page with a bash block, an SQL block, an annotated block and a prose line quoting the annotation
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Runbook
                ```bash
                export PGURL="${DATABASE_URL#jdbc:}"
                ```
                Confirm: the liveness, and `kubectl describe pod <pod>`.

                ```sql
                SELECT 1;
                ```
                <!-- runs: needs a Pushgateway -->
                ```bash
                curl -X DELETE "http://$BACKFILL_PUSHGATEWAY_ADDRESS/metrics/job/x"
                ```
                A block under `<!-- runs: quoted -->` in prose is not annotated:
                ```bash
                true
                ```
                """);

        // When
        List<RunbookCommands.Command> commands = RunbookCommands.of(page);

        // Then
        assertThat(commands).extracting(RunbookCommands.Command::line).containsExactly(2, 7, 11, 15);
        assertThat(commands.get(1).script()).startsWith("psql \"$PGURL\" -X -q -v ON_ERROR_STOP=1 <<'SQL'\nSELECT 1;\nSQL");
        assertThat(commands).extracting(RunbookCommands.Command::leftOut)
                .containsExactly(null, null, "needs a Pushgateway", null);
        assertThat(RunbookCommands.prelude(commands)).contains("export PGURL=");
    }

    @Test
    void shouldFindACommandWrittenInlineInTheProseAlsoOverALineBreakButNotANameOrABlock() throws Exception {
        // Given commands inline (a curl, psql with its URL, SQL over a line break, the wrapper with a subcommand),
        // tool names alone, commands the runbooks do not run here, and the same commands inside blocks
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Runbook
                Confirm: `curl -fsS "http://$PROJECTOR/actuator/health/liveness"` and `kubectl describe pod <pod>`,
                then `psql "$PGURL"` and `SELECT a.pid FROM pg_locks l
                JOIN pg_stat_activity a USING (pid);` with `psql` or `curl`, an `UPDATE` of a row.

                ```bash
                curl -sf "http://$API/actuator/health"
                ```
                ```sql
                SELECT 1;
                ```
                Rebuild: `./backfill-cli rebuild --from-snapshot <file>`; the application name `backfill rebuild pid N`.
                """);

        // When
        List<RunbookCommands.Inline> inline = RunbookCommands.inline(page);

        // Then
        assertThat(inline).containsExactly(
                new RunbookCommands.Inline(2, "curl -fsS \"http://$PROJECTOR/actuator/health/liveness\""),
                new RunbookCommands.Inline(3, "psql \"$PGURL\""),
                new RunbookCommands.Inline(3, "SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a USING (pid);"),
                new RunbookCommands.Inline(12, "./backfill-cli rebuild --from-snapshot <file>"));
    }

    @Test
    void shouldFindACommandInlineInAnyCaseAfterAssignmentsAndThroughBashOrTheInstalledWrapper() throws Exception {
        // Given commands inline in lower case, after NAME=value assignments, through bash, as the installed wrapper
        // with a flag, in more SQL statements and Kafka's tools; and words that only name them
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Runbook
                Run `select 1;`, `PGCONNECT_TIMEOUT=5 PGAPPNAME=ops psql "$PGURL"`, `bash ./backfill-cli verify --snapshot x`,
                `backfill assignments --resume`, `WITH t AS (SELECT 1) SELECT * FROM t;`, `SET lock_timeout = '1s';`,
                `VACUUM ANALYZE audit_records;`, `BEGIN;` then `COPY t TO STDOUT;`, `GRANT SELECT ON t TO r;`,
                `REINDEX TABLE t;` and `kafka-consumer-groups.sh --describe --group g`.
                Not: `backfill rebuild pid N on HOST`, `with`, `PROJECTOR_INPUT_START_AT_LOG_START=true`, `BEGIN`.
                """);

        // When
        List<RunbookCommands.Inline> inline = RunbookCommands.inline(page);

        // Then
        assertThat(inline).extracting(RunbookCommands.Inline::text).containsExactly("select 1;",
                "PGCONNECT_TIMEOUT=5 PGAPPNAME=ops psql \"$PGURL\"", "bash ./backfill-cli verify --snapshot x",
                "backfill assignments --resume", "WITH t AS (SELECT 1) SELECT * FROM t;", "SET lock_timeout = '1s';",
                "VACUUM ANALYZE audit_records;", "BEGIN;", "COPY t TO STDOUT;", "GRANT SELECT ON t TO r;",
                "REINDEX TABLE t;", "kafka-consumer-groups.sh --describe --group g");
    }

    @Test
    void shouldLeaveOutOfTheEndToEndRunOnlyTheCommandThatStartsTheStackItRunsAgainst() {
        assertThat(RunbookCommands.of(ROOT.resolve("docs/operations.md")).stream()
                .filter(command -> command.leftOut() != null).map(RunbookCommands.Command::script))
                .as("blocks of docs/operations.md under <!-- runs: … -->: give a value a variable the test can set")
                .containsExactly("./run --observe\n");
    }

    @Test
    void shouldWriteEveryCommandOfTheRunbooksInABlockThatTheEndToEndTestRuns() {
        assertThat(RunbookCommands.inline(ROOT.resolve("docs/operations.md")))
                .as("commands written inline in docs/operations.md: put each in a ```bash or ```sql block (with "
                        + "<!-- runs: why not --> above it when it cannot run against the local stack)")
                .isEmpty();
    }
}
