package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

/**
 * A rebuild of 100,000 cases while the projector applies a steady stream of events: the swap's lock is held no
 * longer than {@code --swap-within}, and the projection afterwards holds exactly what the events say.
 * {@code -Drebuild.live-traffic.cases=N} runs it at another size.
 */
@RealDatabaseTest
class RebuildUnderLiveTrafficIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final int CASES = Integer.getInteger("rebuild.live-traffic.cases", 100_000);
    static final int EVENTS_PER_TICK = 20;
    static final Duration TICK = Duration.ofMillis(100);

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    final String topic = TestKafka.uniqueTopic("case.events");

    @Test
    void shouldHoldTheSwapLockOfAHundredThousandCasesNoLongerThanSwapWithinWhileTwoHundredEventsASecondArriveAndEndAsTheEventsSay()
            throws Exception {
        // Given cases at revision 1, a projector applying the topic, and 200 events/s of changes arriving
        TestKafka.createTopics(3, topic);
        Map<UUID, Long> revisions = new HashMap<>();
        List<SpecificRecord> history = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            UUID caseId = UUID.randomUUID();
            history.add(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").jurisdiction("georgia").build());
            history.add(CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").jurisdiction("georgia").build());
            revisions.put(caseId, 1L);
        }
        List<UUID> cases = List.copyOf(revisions.keySet());
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        try (EventPublisher publisher = new EventPublisher();
             LiveApplier projector = new LiveApplier(DB.dataSource(), topic, 500, new CountDownLatch(0))) {
            publisher.publishAll(topic, history);
            int[] next = {0};
            ScheduledFuture<?> traffic = clock.scheduleAtFixedRate(() -> {
                List<SpecificRecord> tick = new ArrayList<>();
                for (int i = 0; i < EVENTS_PER_TICK; i++) {
                    UUID caseId = cases.get(next[0]++ % cases.size());
                    long revision = revisions.merge(caseId, 1L, Long::sum);
                    tick.add(CaseEvents.changed(caseId, revision).worker("w-" + revision).supervisor("s-" + revision)
                            .jurisdiction("georgia").build());
                }
                publisher.publishAll(topic, tick);
            }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);

            // When the rebuild runs and swaps under that traffic
            Cli.Run run = CompletableFuture.supplyAsync(() -> new Cli(commandLine).run("rebuild", "--topics", topic,
                    "--progress", "none", "--batch-size", "2000")).get(5, TimeUnit.MINUTES);
            traffic.cancel(false);
            clock.shutdown();
            assertThat(clock.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            Map<TopicPartition, Long> end = LiveApplier.endOffsets(topic);
            Awaitility.await("the projector to apply the last of the traffic").atMost(Duration.ofSeconds(120))
                    .until(() -> projector.caughtUpTo(end));

            // Then the lock was held under a second, and every case is at the revision its last event says
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(millis(run.out(), "lock held \\(ms\\)")).as(run.out()).isLessThan(1000);
            Map<UUID, Long> projected = new HashMap<>();
            jdbc.query("SELECT case_id, assignment_revision, assigned_worker_sub FROM case_assignments", rs -> {
                long revision = rs.getLong(2);
                assertThat(rs.getString(3)).isEqualTo("w-" + revision);
                projected.put(rs.getObject(1, UUID.class), revision);
            });
            assertThat(projected).isEqualTo(revisions);
        } finally {
            clock.shutdownNow();
        }
    }

    private static long millis(String report, String label) {
        Matcher m = Pattern.compile(label + "\\s+([\\d,]+)\\n").matcher(report);
        assertThat(m.find()).as("the report's line " + label).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}
