package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.backfill.BackfillApplication;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * The Kafka Streams projector and {@code backfill replay} reading the same reordered, redelivered history at the
 * same time, both writing through the guard: the projection reaches the oracle, and no sample of it, taken over
 * and over while both run, shows a case at a lower revision than an earlier sample did.
 */
class ProjectorAlongsideReplayIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldReachTheOracleAndNeverShowARowMovingBackwardsWhileTheProjectorAndAReplayApplyOneHistory() throws Exception {
        // Given a history of reordered and repeated events, and a sampler watching every case's revision
        CaseHistory history = CaseHistory.generate(1619, 3000, 8);
        history.seedRows(jdbc);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), history.deliveries);
        }
        TestKafka.createTopics(3, TOPICS.deadLetter());
        Sampler sampler = new Sampler(jdbc);
        CompletableFuture<Void> sampling = CompletableFuture.runAsync(sampler);
        sampler.started.await(30, TimeUnit.SECONDS);

        // When the projector and the replay both start from the beginning
        String applicationId = ProjectorInstance.uniqueApplicationId();
        try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, applicationId)) {
            int replay = replay("replay", "--topics", TOPICS.events(), "--dead-letter-topic", TOPICS.deadLetter(),
                    "--group", "replay-" + UUID.randomUUID(), "--batch-size", "500", "--progress", "none");
            ProjectionRows.awaitOracle(jdbc, history, TIMEOUT);
            sampler.stop.set(true);
            sampling.get(30, TimeUnit.SECONDS);

            // Then
            assertThat(replay).isEqualTo(ExitCodes.SUCCESS);
            assertThat(sampler.backwards).as("rows seen moving backwards").isEmpty();
            assertThat(sampler.samples.get()).as("samples taken while both ran").isGreaterThan(2);
            assertThat(ProjectionRows.entityRowsOffOracle(jdbc, history.oracle)).isEmpty();
        }
    }

    /** Runs one backfill command in this JVM, against this test's database and broker; returns its exit code. */
    private static int replay(String... args) {
        Map<String, Object> properties = new HashMap<>(DB.springProperties());
        properties.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        properties.put("spring.flyway.enabled", "false");
        // The projector's application.yml comes first on this classpath; the backfill must not read it.
        properties.put("spring.config.name", "backfill-beside-the-projector");
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("replay-test", properties));
        return SpringApplication.exit(new SpringApplicationBuilder(BackfillApplication.class)
                .environment(environment).web(WebApplicationType.NONE).run(args));
    }

    /** Reads every case's revision again and again until stopped; keeps each case's highest and any step down. */
    private static final class Sampler implements Runnable {

        final CountDownLatch started = new CountDownLatch(1);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger samples = new AtomicInteger();
        final List<String> backwards = new ArrayList<>();
        private final JdbcTemplate jdbc;
        private final Map<UUID, Long> highest = new HashMap<>();

        Sampler(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Override
        public void run() {
            started.countDown();
            while (!stop.get()) {
                jdbc.query("SELECT case_id, assignment_revision FROM case_assignments", rs -> {
                    UUID caseId = rs.getObject(1, UUID.class);
                    long revision = rs.getLong(2);
                    Long before = highest.put(caseId, revision);
                    if (before != null && revision < before) {
                        backwards.add(caseId + ": " + before + " then " + revision);
                    }
                });
                samples.incrementAndGet();
            }
        }
    }
}
