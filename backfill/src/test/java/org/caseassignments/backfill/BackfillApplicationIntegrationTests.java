package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import picocli.CommandLine;

@SpringBootTest
class BackfillApplicationIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        DB.register(registry);
        registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
    }

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
    void shouldExitTwoOnBadUsage() {
        StringWriter err = new StringWriter();
        commandLine.setErr(new PrintWriter(err));

        int exit = commandLine.execute("status", "--no-such-option");

        assertThat(exit).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(err.toString()).contains("--no-such-option");
    }
}
