package org.caseassignments.backfill;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Checks that PostgreSQL and Kafka answer, and prints what the projection holds. */
@Component
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Check the connections to PostgreSQL and Kafka and print the projection's size.")
class StatusCommand implements Callable<Integer> {

    private static final String COUNT_PROJECTION = """
            SELECT count(*) FILTER (WHERE assignment_revision >= 0) AS known,
                   count(*) FILTER (WHERE assignment_revision < 0)  AS placeholders
              FROM case_assignments
            """;

    private final JdbcTemplate jdbc;
    private final KafkaProperties kafka;

    @Spec
    CommandSpec spec;

    StatusCommand(JdbcTemplate jdbc, KafkaProperties kafka) {
        this.jdbc = jdbc;
        this.kafka = kafka;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> counts = jdbc.queryForMap(COUNT_PROJECTION);
        out.printf("postgresql: ok, %s known cases, %s placeholders%n", counts.get("known"), counts.get("placeholders"));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                String.join(",", kafka.getBootstrapServers())))) {
            String clusterId = admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            out.printf("kafka: ok, cluster %s%n", clusterId);
        }
        out.flush();
        return ExitCodes.SUCCESS;
    }
}
