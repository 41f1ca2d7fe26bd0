package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import com.sun.net.httpserver.HttpServer;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.OpsDefinitions;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The jobs dashboard ({@code ops/grafana/jobs.json}) holds for a job as it runs: a replay over a realistic topic
 * (creates, reassignments, a bad record), started as an operator starts it with the Pushgateway turned on,
 * pushes every metric the dashboard names when it ends. The Pushgateway is an HTTP listener that keeps what
 * it is sent.
 */
class JobMetricsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    private final List<String> pushed = Collections.synchronizedList(new ArrayList<>());
    private final String topic = TestKafka.uniqueTopic("case.events");
    private final String deadLetters = TestKafka.uniqueTopic("case.events.dlq");
    private HttpServer pushgateway;

    @BeforeEach
    void createTopicsAndStartPushgateway() throws IOException {
        TestKafka.createTopics(2, topic, deadLetters);
        pushgateway = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        pushgateway.createContext("/metrics/job/", exchange -> {
            pushed.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + "\n"
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        pushgateway.start();
    }

    @AfterEach
    void stopPushgateway() {
        pushgateway.stop(0);
    }

    @Test
    void shouldPushEveryMetricTheJobsDashboardNamesWhenAReplayEnds() {
        // Given a topic like production's
        try (EventPublisher publisher = new EventPublisher()) {
            for (int i = 0; i < 5; i++) {
                UUID caseId = UUID.randomUUID();
                publisher.publishInOrder(topic, List.of(CaseEvents.created(caseId).worker("w-1").build(),
                        CaseEvents.changed(caseId, 1).worker("w-2").build(), CaseEvents.changed(caseId, 1).worker("w-2").build()));
            }
            publisher.publishRaw(topic, UUID.randomUUID().toString(), "not an event".getBytes(StandardCharsets.UTF_8));
        }

        // When a replay runs to its end with the Pushgateway turned on
        int exit = runWithThePushgateway("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID());
        assertThat(exit).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);

        // Then its last push, as the job ends, holds every metric the jobs dashboard names
        assertThat(pushed).as("pushes to the Pushgateway").isNotEmpty();
        String last = pushed.get(pushed.size() - 1);
        // in a group of its own, by subcommand and host, so that jobs running at once do not overwrite each other
        assertThat(last).startsWith("PUT /metrics/job/case-assignments-backfill/command/replay/instance/");
        Set<String> missing = new TreeSet<>(OpsDefinitions.metricNames("jobs"));
        missing.removeAll(OpsDefinitions.exposed(last.substring(last.indexOf('\n') + 1)));
        assertThat(missing).as("named by ops/grafana/jobs.json or ops/prometheus/jobs.rules.yml, but not pushed by the "
                + "job").isEmpty();
        // and its exit code, which the failed-job alert reads: 1, finished with rejected rows
        assertThat(last).containsPattern("(?m)^backfill_job_exit_code\\{[^}]*\\} 1(\\.0)?$");
    }

    @Test
    void shouldPushADryRunToAGroupOfItsOwnWithoutTheMetersOfTheBatchesItRolledBack() {
        // Given events a replay would apply
        try (EventPublisher publisher = new EventPublisher()) {
            UUID caseId = UUID.randomUUID();
            publisher.publishInOrder(topic, List.of(CaseEvents.created(caseId).worker("w-1").build(),
                    CaseEvents.changed(caseId, 1).worker("w-2").build()));
        }

        // When a dry run of it runs with the Pushgateway turned on
        int exit = runWithThePushgateway("replay", "--topics", topic, "--dead-letter-topic", deadLetters, "--group",
                "replay-" + UUID.randomUUID(), "--dry-run");
        assertThat(exit).isEqualTo(ExitCodes.SUCCESS);

        // Then it pushes to a group of its own, never the group of the replays the alerts and the dashboard read
        assertThat(pushed).as("pushes to the Pushgateway").isNotEmpty()
                .allSatisfy(push -> assertThat(push.lines().findFirst().orElseThrow())
                        .contains(" /metrics/job/case-assignments-backfill/command/replay-dry-run/instance/"));
        // and records nothing applied, no lag and no conflict for the batches it rolled back
        String last = pushed.get(pushed.size() - 1);
        assertThat(last).containsPattern("(?m)^case_assignments_events_applied_total\\{[^}]*\\} 0(\\.0)?$")
                .doesNotContainPattern("(?m)^case_assignments_lag_end_to_end_seconds_count\\{[^}]*\\} [1-9]")
                .doesNotContainPattern("(?m)^case_assignments_events_conflicting_total\\{[^}]*\\} [1-9]");
    }

    /** Runs a job as an operator starts it, with the Pushgateway turned on; its exit code. */
    private int runWithThePushgateway(String... arguments) {
        Map<String, Object> settings = new HashMap<>(DB.springProperties());
        settings.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        settings.put("management.prometheus.metrics.export.pushgateway.enabled", "true");
        settings.put("management.prometheus.metrics.export.pushgateway.address", "localhost:" + pushgateway.getAddress().getPort());
        settings.put("management.prometheus.metrics.export.pushgateway.format", "text");
        // as an operator's environment would: above application.yml, and not on the command line, which is the job's
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("operator", settings));
        try (ConfigurableApplicationContext job = new SpringApplicationBuilder(BackfillApplication.class)
                .web(WebApplicationType.NONE).environment(environment).run(arguments)) {
            return job.getBean(CommandLineRunnerConfiguration.CommandRunner.class).getExitCode();
        }
    }
}
