package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.DrainWorkload;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * A backlog is written as it is read: what a task holds for the history (the revisions a newer one replaced) counts
 * against the byte budget like what it keeps, the tasks of an instance share one budget, and a task that has held
 * events for {@code write-within} writes them without waiting for the commit interval, the end of its input or a
 * quiet spell.
 */
class ProjectorBacklogWrittenAsReadIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldWriteEarlyOnceTheRevisionsSetAsideForTheHistoryHoldTheByteBudget() {
        // Given a backlog of 10 cases with 1,500 revisions each, on one partition
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        int cases = 10;
        int revisions = 1_500;
        List<SpecificRecord> events = new ArrayList<>();
        List<UUID> ids = DrainWorkload.caseIds(new Random(), cases);
        for (int r = 1; r <= revisions; r++) {
            for (UUID id : ids) {
                events.add(CaseEvents.changed(id, r).worker("w-" + r).build());
            }
        }
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(topics.events(), events);
        }

        // When a projector with a 256 KB budget per task reads it, with nothing but the budget ending a batch early
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.writingOnlyAtTheByteBudget(
                ProjectorInstance.properties(DB, topics, group), "256KB");
        String list = String.join(",", ids.stream().map(UUID::toString).toList());
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
                assertThat(casesAtRevision(list, revisions)).isEqualTo(cases);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignment_history WHERE case_id::text = "
                        + "ANY(string_to_array(?, ','))", Long.class, list)).isEqualTo((long) cases * revisions);
            });

            // Then no batch held much more than the budget's worth of events (a set-aside revision counts about 600
            // bytes: some 430 of them), where the kept events alone (10 cases) never reach it
            DistributionSummary batches = projector.bean(MeterRegistry.class).get("case_assignments.batch.size").summary();
            assertThat(batches.max()).isLessThan(3_000);
            assertThat(batches.count()).isGreaterThan(4);
        }
    }

    @Test
    void shouldCountTheHeadersOfEachPendingRecordAsTheHeapTheyTake() {
        // Given a backlog of 10 cases with 100 revisions each, each record carrying 300 headers of a short key and a
        // one-byte value (at least 104 bytes of heap each once read: the header's object, 32; its key's string and
        // bytes, 24 each; its value's bytes, 24), on one partition
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        List<UUID> ids = DrainWorkload.caseIds(new Random(), 10);
        int revisions = 100;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int h = 0; h < 300; h++) {
            headers.put("h" + h, "x");
        }
        try (EventPublisher publisher = new EventPublisher()) {
            for (int r = 1; r <= revisions; r++) {
                for (UUID id : ids) {
                    publisher.publish(topics.events(), CaseEvents.changed(id, r).worker("w-" + r).build(), headers);
                }
            }
        }

        // When a projector with a 512 KB budget reads it, with nothing but the budget ending a batch early
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.writingOnlyAtTheByteBudget(
                ProjectorInstance.properties(DB, topics, group), "512KB");
        properties.put("management.metrics.distribution.expiry[case_assignments.batch.size]", "1h"); // max() kept
        String list = String.join(",", ids.stream().map(UUID::toString).toList());
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() ->
                    assertThat(casesAtRevision(list, revisions)).isEqualTo(ids.size()));

            // Then no batch held more events than it takes to reach 512 KB with such headers (17 of 300 × 104 bytes
            // each: the batch's last event is the one that reaches it), where counting a header as its key's and
            // value's bytes alone let some 290 of them in
            int fill = (512 * 1024 + 300 * 104 - 1) / (300 * 104);
            DistributionSummary batches = projector.bean(MeterRegistry.class).get("case_assignments.batch.size").summary();
            assertThat(batches.max()).isLessThanOrEqualTo(fill);
            assertThat(batches.count()).isGreaterThanOrEqualTo(ids.size() * revisions / fill);
        }
    }

    @Test
    void shouldKeepAllTasksOfAnInstanceTogetherWithinOneByteBudget() {
        // Given 60 cases with 500 revisions each, spread over three partitions (three tasks)
        ProjectorTopics topics = ProjectorTopics.unique(3).createEvents();
        List<UUID> ids = DrainWorkload.caseIds(new Random(), 60);
        int revisions = 500;
        List<SpecificRecord> events = new ArrayList<>();
        for (int r = 1; r <= revisions; r++) {
            for (UUID id : ids) {
                events.add(CaseEvents.changed(id, r).worker("w-" + r).build());
            }
        }
        // When a projector with a 256 KB budget has its three tasks processing, with nothing but the budget ending a
        // batch early, and then reads it
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.writingOnlyAtTheByteBudget(
                ProjectorInstance.properties(DB, topics, group), "256KB");
        properties.put("management.metrics.distribution.expiry[case_assignments.batch.size]", "1h"); // max() kept
        String list = String.join(",", ids.stream().map(UUID::toString).toList());
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> projector.streams().state() == KafkaStreams.State.RUNNING);
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishAll(topics.events(), events);
            }
            await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() ->
                    assertThat(casesAtRevision(list, revisions)).isEqualTo(ids.size()));

            // Then each of the three tasks wrote at a third of the budget (some 430 events of about 600 bytes fill
            // all of it), so the three together never held more than the budget
            DistributionSummary batches = projector.bean(MeterRegistry.class).get("case_assignments.batch.size").summary();
            assertThat(batches.max()).isLessThan(400);
            assertThat(batches.count()).isGreaterThan(3 * 10);
        }
    }

    @Test
    void shouldWriteAndCommitABacklogWhileItIsStillBeingRead() throws Exception {
        // Given a projector whose commit interval and quiet rule are five minutes away and that sees no event as live
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();
        String group = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(DB, topics, group);
        properties.put("projector.sink.fresh-within", "0ms");
        properties.put("projector.sink.quiet-after", "5m");
        properties.put("projector.sink.check-every", "2s"); // its input never pauses for a whole check
        properties.put("projector.streams.commit-interval", "5m");
        UUID caseId = UUID.randomUUID();
        AtomicBoolean publishing = new AtomicBoolean(true);
        AtomicLong published = new AtomicLong();
        AtomicReference<Throwable> publisherFailure = new AtomicReference<>();
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            // When events keep coming, with no end of the input in sight
            Thread publisher = new Thread(() -> {
                try (EventPublisher events = new EventPublisher()) {
                    long revision = 0;
                    while (publishing.get() && revision < 200_000) {
                        List<SpecificRecord> burst = new ArrayList<>();
                        for (int i = 0; i < 20; i++) {
                            burst.add(CaseEvents.changed(caseId, ++revision).build());
                        }
                        events.publishAll(topics.events(), burst);
                        published.set(revision);
                    }
                }
            }, "backlog-publisher");
            publisher.setUncaughtExceptionHandler((thread, failure) -> publisherFailure.set(failure));
            publisher.start();
            try {
                // Then its events reach PostgreSQL and their offsets are committed while it still reads
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                    assertThat(publisherFailure.get()).as("the publisher's failure").isNull();
                    assertThat(jdbc.queryForObject("SELECT assignment_revision FROM case_assignments WHERE case_id = ?",
                            Long.class, caseId)).isPositive();
                    assertThat(KafkaOffsets.committed(group, topics.events()).getOrDefault(0, 0L)).isPositive();
                });
                assertThat(publisher.isAlive()).as("still publishing").isTrue();
            } finally {
                publishing.set(false);
                publisher.join(Duration.ofSeconds(30).toMillis());
            }
            assertThat(publisherFailure.get()).as("the publisher's failure").isNull();
            assertThat(published.get()).isPositive();
        }
    }

    /** How many of the cases in {@code list} (comma-separated) the projection holds at {@code revision}. */
    private long casesAtRevision(String list, long revision) {
        return jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id::text = "
                + "ANY(string_to_array(?, ',')) AND assignment_revision = ?", Long.class, list, revision);
    }
}
