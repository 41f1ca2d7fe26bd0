package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunbookCommandsTests {

    @TempDir
    Path dir;

    @Test
    void shouldTakeEveryBashAndSqlBlockAndInlineCurlAndLeaveOutOnlyAnAnnotatedBlock() throws Exception {
        // Given a page with a bash block, an SQL block, an annotated block, a prose line quoting the annotation,
        // an inline curl against the management address and another command inline
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Runbook
                ```bash
                export PGURL="${DATABASE_URL#jdbc:}"
                ```
                Confirm: `curl -fsS "http://$PROJECTOR/actuator/health/liveness"` and `kubectl describe pod <pod>`.

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
        assertThat(commands).extracting(RunbookCommands.Command::line).containsExactly(2, 5, 7, 11, 15);
        assertThat(commands.get(1).script()).isEqualTo("curl -fsS \"http://$PROJECTOR/actuator/health/liveness\"\n");
        assertThat(commands.get(2).script()).startsWith("psql \"$PGURL\" -X -q -v ON_ERROR_STOP=1 <<'SQL'\nSELECT 1;\nSQL");
        assertThat(commands).extracting(RunbookCommands.Command::leftOut)
                .containsExactly(null, null, null, "needs a Pushgateway", null);
        assertThat(RunbookCommands.prelude(commands)).contains("export PGURL=");
    }
}
