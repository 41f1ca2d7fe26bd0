package org.caseassignments.backfill.assignments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.backfill.Tables;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine;

/**
 * A backfill running at the same time as the live projector's path (ingest's reader and applier fed
 * by a real Kafka consumer) on the same cases ends where the oracle says: the highest revision per
 * case, with the snapshot's values wherever the snapshot holds that revision.
 */
@RealDatabaseTest
class BackfillRacingTheProjectorIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    @TempDir
    Path dir;

    final JdbcTemplate jdbc = DB.jdbc();

    @BeforeEach
    void clean() {
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options");
    }

    @Test
    void shouldEndAtTheOracleWhenABackfillRacesTheLiveProjectorOnTheSameCases() throws Exception {
        // Given random histories: events for most cases, a snapshot row for most, entity rows born unknown
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String topic = TestKafka.uniqueTopic("case.events");
        TestKafka.createTopics(3, topic);
        Map<UUID, Expected> oracle = new HashMap<>();
        List<SpecificRecord> events = new ArrayList<>();
        List<String> snapshotRows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            UUID caseId = UUID.randomUUID();
            Expected expected = null;
            if (random.nextInt(10) > 0) {
                int last = random.nextInt(7);
                List<SpecificRecord> history = new ArrayList<>();
                history.add(CaseEvents.created(caseId).worker("w-e0").supervisor("s-e0").build());
                for (int revision = 1; revision <= last; revision++) {
                    history.add(CaseEvents.changed(caseId, revision).worker("w-e" + revision).supervisor("s-e" + revision).build());
                }
                Collections.shuffle(history, random);
                events.addAll(history);
                expected = new Expected("w-e" + last, "s-e" + last, last);
            }
            if (expected == null || random.nextInt(10) > 0) {
                int revision = random.nextInt(8);
                snapshotRows.add(caseId + ",w-snap" + revision + ",s-snap" + revision + "," + revision);
                if (expected == null || revision >= expected.revision()) {
                    expected = new Expected("w-snap" + revision, "s-snap" + revision, revision);
                }
            }
            oracle.put(caseId, expected);
            Rows.placement(caseId).bornUnknown().insert(jdbc);
            if (i % 2 == 0) {
                Rows.kinshipOption(caseId).bornUnknown().insert(jdbc);
            }
        }
        Collections.shuffle(events, random);
        Collections.shuffle(snapshotRows, random);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(topic, events);
        }
        Map<TopicPartition, Long> ends = LiveApplier.endOffsets(topic);
        Path snapshot = dir.resolve("snapshot.csv");
        List<String> lines = new ArrayList<>(List.of("case_id,assigned_worker_sub,supervisor_sub,assignment_revision"));
        lines.addAll(snapshotRows);
        Files.write(snapshot, lines);

        // When the live applier and the backfill start together
        CountDownLatch start = new CountDownLatch(1);
        Cli.Run run;
        try (LiveApplier live = new LiveApplier(DB.dataSource(), topic, 20, start)) {
            CompletableFuture<Cli.Run> backfill = CompletableFuture.supplyAsync(() -> {
                awaitQuietly(start);
                return new Cli(commandLine).run("assignments", "--file", snapshot.toString(), "--batch-size", "25",
                        "--rejects", dir.resolve("rejects.csv").toString());
            });
            start.countDown();
            run = backfill.get(120, TimeUnit.SECONDS);
            Awaitility.await("the live applier to apply every event").atMost(Duration.ofSeconds(120))
                    .until(() -> live.caughtUpTo(ends));
        }

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        Map<UUID, Expected> projection = new HashMap<>();
        for (Map<String, Object> row : Tables.projection(jdbc)) {
            projection.put((UUID) row.get("case_id"), new Expected((String) row.get("assigned_worker_sub"),
                    (String) row.get("supervisor_sub"), (Long) row.get("assignment_revision")));
        }
        assertThat(projection).as("seed %d", seed).isEqualTo(oracle);
        for (Map<String, Object> row : Tables.entityRows(jdbc)) {
            assertThat(new Expected((String) row.get("assigned_worker_sub"), (String) row.get("supervisor_sub"),
                    (Long) row.get("assignment_revision")))
                    .as("seed %d, %s %s of case %s", seed, row.get("kind"), row.get("id"), row.get("case_id"))
                    .isEqualTo(oracle.get((UUID) row.get("case_id")));
        }
    }

    @Test
    void shouldWaitForALiveBatchHoldingACaseAndJudgeTheRevisionItCommitted() throws Exception {
        // Given a case at revision 3, and a live batch that moved it to 5 and has not committed yet
        UUID caseId = Rows.assignment(UUID.randomUUID()).worker("w-3").supervisor("s-3").revision(3).insert(jdbc);
        UUID placement = Rows.placement(caseId).worker("w-3").supervisor("s-3").revision(3).insert(jdbc);
        Path snapshot = dir.resolve("snapshot.csv");
        Files.write(snapshot, List.of("case_id,assigned_worker_sub,supervisor_sub,assignment_revision", caseId + ",w-snap,s-snap,5"));
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
        AssignmentWriter writer = new AssignmentWriter(jdbc);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> live = CompletableFuture.runAsync(() -> transaction.executeWithoutResult(status -> {
            writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-live", "s-live", 5)));
            holding.countDown();
            awaitQuietly(release);
        }));
        try {
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

            // When the backfill runs meanwhile, and the live batch commits while the backfill waits for its lock
            CompletableFuture<Cli.Run> backfill = CompletableFuture.supplyAsync(() -> new Cli(commandLine).run(
                    "assignments", "--file", snapshot.toString(), "--rejects", dir.resolve("r.csv").toString()));
            Awaitility.await("the backfill to wait for the live batch's row lock").atMost(Duration.ofSeconds(30))
                    .until(() -> jdbc.queryForObject("""
                            SELECT count(*) FROM pg_stat_activity
                             WHERE datname = current_database() AND wait_event_type = 'Lock'
                            """, Integer.class) == 1);
            release.countDown();
            live.get(30, TimeUnit.SECONDS);
            Cli.Run run = backfill.get(30, TimeUnit.SECONDS);

            // Then the snapshot, the truth at revision 5, converged the values the live batch committed
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", caseId))
                    .containsEntry("assigned_worker_sub", "w-snap").containsEntry("assignment_revision", 5L);
            assertThat(jdbc.queryForMap("SELECT * FROM placements WHERE id = ?", placement))
                    .containsEntry("assigned_worker_sub", "w-snap").containsEntry("assignment_revision", 5L)
                    .containsEntry("row_version", 3L);
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the latch was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Expected(String worker, String supervisor, long revision) {
    }
}
