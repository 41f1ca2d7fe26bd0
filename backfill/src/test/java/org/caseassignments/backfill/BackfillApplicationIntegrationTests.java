package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.UUID;

import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import picocli.CommandLine;

@RealDatabaseTest
class BackfillApplicationIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    @Test
    void shouldConnectToPostgresAndKafkaAndReportTheProjection() {
        Rows.assignment(UUID.randomUUID()).insert(DB.jdbc());
        Rows.assignment(UUID.randomUUID()).placeholder().insert(DB.jdbc());
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));

        int exit = commandLine.execute("status");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("postgresql: ok, 1 known cases, 1 placeholders").contains("kafka: ok, cluster");
    }

    @Test
    void shouldExit64OnBadUsage() {
        StringWriter err = new StringWriter();
        commandLine.setErr(new PrintWriter(err));

        int exit = commandLine.execute("status", "--no-such-option");

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--no-such-option");
    }
}
