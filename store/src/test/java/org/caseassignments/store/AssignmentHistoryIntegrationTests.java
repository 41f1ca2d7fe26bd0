package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class AssignmentHistoryIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    @Test
    void shouldRecordEveryRevisionGivenOnceAlsoThoseTheGuardSkips() {
        // Given a case whose newest revision arrives first, then older ones, one of them twice
        UUID caseId = UUID.randomUUID();
        Instant t = Instant.parse("2026-03-01T10:00:00Z");
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-3", "s-3", 3)), seen(t.plusSeconds(3),
                AssignmentUpdate.changed(caseId, "w-3", "s-3", 3)));
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1)), seen(t.plusSeconds(1),
                AssignmentUpdate.changed(caseId, "w-1", "s-1", 1)));

        // When a batch holds revision 0, revision 1 again and revision 2
        writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0").withJurisdiction("georgia"),
                AssignmentUpdate.changed(caseId, "w-1", "s-1", 1), AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        // Then the projection stays at 3 and the history holds 0..3, each once
        assertThat(jdbc.queryForObject("SELECT assignment_revision FROM case_assignments WHERE case_id = ?", Long.class,
                caseId)).isEqualTo(3L);
        assertThat(history(caseId)).containsExactly(
                Map.entry(0L, "w-0/s-0/georgia"), Map.entry(1L, "w-1/s-1/null"), Map.entry(2L, "w-2/s-2/null"),
                Map.entry(3L, "w-3/s-3/null"));
        assertThat(jdbc.queryForObject("""
                SELECT occurred_at FROM case_assignment_history WHERE case_id = ? AND assignment_revision = 1
                """, java.sql.Timestamp.class, caseId).toInstant()).isEqualTo(t.plusSeconds(1));
    }

    @Test
    void shouldKeepTheFirstPayloadOfARevisionWithinABatchAndAcrossBatches() {
        UUID caseId = UUID.randomUUID();

        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-first", "s", 4),
                AssignmentUpdate.changed(caseId, "w-second", "s", 4)));
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-third", "s", 4)));
        writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-snapshot", "s", 4)));

        assertThat(history(caseId)).containsExactly(Map.entry(4L, "w-first/s/null"));
    }

    @Test
    void shouldKeepTheFirstPayloadOfEachRevisionWhenTheHistoryTakesMoreThanOneStatement() {
        // Given a batch of 6,000 cases whose history entries (three per case, a revision given twice) need two statements
        List<AssignmentUpdate> updates = new java.util.ArrayList<>();
        List<SeenRevision> seen = new java.util.ArrayList<>();
        List<UUID> cases = new java.util.ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            UUID caseId = UUID.randomUUID();
            cases.add(caseId);
            AssignmentUpdate newest = AssignmentUpdate.changed(caseId, "w-2", "s", 2);
            updates.add(newest);
            seen.add(new SeenRevision(newest, null));
        }
        for (UUID caseId : cases) {
            seen.add(new SeenRevision(AssignmentUpdate.changed(caseId, "w-first", "s", 1), null));
        }
        for (UUID caseId : cases) {
            seen.add(new SeenRevision(AssignmentUpdate.changed(caseId, "w-second", "s", 1), null));
        }
        assertThat(seen.size()).isGreaterThan(AssignmentWriter.HISTORY_ROWS_PER_STATEMENT);

        // When it is written
        writer.apply(updates, seen);

        // Then every case has both revisions, the first payload at each
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM case_assignment_history WHERE case_id = ANY(?::uuid[])""", Long.class,
                (Object) cases.stream().map(UUID::toString).toArray(String[]::new))).isEqualTo(12_000L);
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM case_assignment_history
                 WHERE case_id = ANY(?::uuid[]) AND assignment_revision = 1 AND assigned_worker_sub = 'w-first'""",
                Long.class, (Object) cases.stream().map(UUID::toString).toArray(String[]::new))).isEqualTo(6_000L);
    }

    @Test
    void shouldEndWithTheSameHistoryWhateverTheOrderBatchingAndRepetitionOfTheInput() {
        // Given random histories of 200 cases, each revision with its own time; about one revision in six also
        // comes with another payload and time (a producer's retry that changed it), which the first one received wins
        Random random = new Random(20261201);
        List<SeenRevision> input = new ArrayList<>();
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        java.util.Set<UUID> cases = new java.util.HashSet<>();
        for (int c = 0; c < 200; c++) {
            UUID caseId = new UUID(random.nextLong(), random.nextLong());
            cases.add(caseId);
            int revisions = 1 + random.nextInt(6);
            for (long revision = 0; revision < revisions; revision++) {
                do {
                    AssignmentUpdate update = AssignmentUpdate.changed(caseId, "w-" + random.nextInt(9),
                            "s-" + random.nextInt(9), revision);
                    input.add(new SeenRevision(update, start.plus(random.nextInt(1_000_000), ChronoUnit.SECONDS)));
                } while (random.nextInt(6) == 0);
            }
        }
        List<SeenRevision> delivered = new ArrayList<>(input);
        for (int d = 0; d < input.size() / 5; d++) {
            delivered.add(input.get(random.nextInt(input.size())));
        }
        Collections.shuffle(delivered, random);
        // The oracle: per case and revision, what the writer receives first (batches in order, a batch in its order)
        Map<UUID, TreeMap<Long, SeenRevision>> first = new java.util.HashMap<>();
        delivered.forEach(seen -> first.computeIfAbsent(seen.update().caseId(), id -> new TreeMap<>())
                .putIfAbsent(seen.update().revision(), seen));
        Map<String, String> oracle = new TreeMap<>();
        Map<UUID, String> newest = new java.util.HashMap<>();
        first.forEach((caseId, revisions) -> {
            revisions.forEach((revision, seen) -> oracle.put(key(caseId, revision), entry(seen)));
            AssignmentUpdate last = revisions.lastEntry().getValue().update();
            newest.put(caseId, last.revision() + " " + last.assignedWorkerSub() + "/" + last.supervisorSub());
        });

        // When they are applied in random batches, and then replayed from the start in other batches
        applyInRandomBatches(delivered, 40, random);
        Map<String, String> applied = storedHistory(cases);
        List<Map<String, Object>> appliedVersions = jdbc.queryForList(
                "SELECT case_id, assignment_revision, xmin::text AS xmin FROM case_assignment_history ORDER BY 1, 2");
        List<SeenRevision> replayed = new ArrayList<>(input);
        Collections.shuffle(replayed, random);
        applyInRandomBatches(replayed, 100, random);

        // Then the history is exactly the distinct (case, revision) of the input, each with the first payload and
        // time received, the projection holds the first payload of each case's newest revision, and the replay
        // added, changed and rewrote nothing
        assertThat(applied).isEqualTo(oracle);
        assertThat(oracle.size()).as("the input held conflicting payloads").isLessThan(input.size());
        Map<UUID, String> projected = new java.util.HashMap<>();
        jdbc.query("SELECT case_id, assignment_revision, assigned_worker_sub, supervisor_sub FROM case_assignments",
                rs -> {
                    UUID caseId = rs.getObject("case_id", UUID.class);
                    if (cases.contains(caseId)) {
                        projected.put(caseId, rs.getLong("assignment_revision") + " " + rs.getString("assigned_worker_sub")
                                + "/" + rs.getString("supervisor_sub"));
                    }
                });
        assertThat(projected).isEqualTo(newest);
        assertThat(storedHistory(cases)).isEqualTo(oracle);
        assertThat(jdbc.queryForList(
                "SELECT case_id, assignment_revision, xmin::text AS xmin FROM case_assignment_history ORDER BY 1, 2"))
                .as("no entry rewritten by the replay").isEqualTo(appliedVersions);
    }

    private void applyInRandomBatches(List<SeenRevision> input, int largestBatch, Random random) {
        for (int from = 0; from < input.size(); ) {
            int to = Math.min(input.size(), from + 1 + random.nextInt(largestBatch));
            List<SeenRevision> batch = input.subList(from, to);
            writer.apply(batch.stream().map(SeenRevision::update).toList(), batch);
            from = to;
        }
    }

    /** {@code case@revision → worker/supervisor@occurred_at} of the given cases' entries. */
    private Map<String, String> storedHistory(java.util.Set<UUID> cases) {
        Map<String, String> stored = new TreeMap<>();
        jdbc.query("""
                SELECT case_id, assignment_revision, assigned_worker_sub, supervisor_sub, occurred_at
                  FROM case_assignment_history""", rs -> {
            UUID caseId = rs.getObject("case_id", UUID.class);
            if (cases.contains(caseId)) {
                stored.put(key(caseId, rs.getLong("assignment_revision")), rs.getString("assigned_worker_sub")
                        + "/" + rs.getString("supervisor_sub") + "@"
                        + rs.getObject("occurred_at", java.time.OffsetDateTime.class).toInstant());
            }
        });
        return stored;
    }

    private static String key(UUID caseId, long revision) {
        return caseId + "@" + revision;
    }

    private static String entry(SeenRevision seen) {
        return seen.update().assignedWorkerSub() + "/" + seen.update().supervisorSub() + "@" + seen.occurredAt();
    }

    @Test
    void shouldRecordTheSameEntriesFromTwoWritersAtOnceWithoutDeadlock() throws Exception {
        // Given a writer that recorded revisions of two cases and has not committed
        UUID a = new UUID(0, 1);
        UUID b = new UUID(0, 2);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> first = threads.submit(() -> transaction.executeWithoutResult(status -> {
                writer.apply(List.of(AssignmentUpdate.changed(a, "w", "s", 1), AssignmentUpdate.changed(b, "w", "s", 1)));
                holding.countDown();
                await(release);
            }));
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

            // When a second writer records the same entries, given in the other order, and has to wait
            Future<ApplyResult> second = threads.submit(() -> transaction.execute(status -> writer.apply(
                    List.of(AssignmentUpdate.changed(b, "w", "s", 1), AssignmentUpdate.changed(a, "w", "s", 1)))));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject("""
                    SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0
                    """, Integer.class) == 1);
            release.countDown();
            first.get(30, TimeUnit.SECONDS);

            // Then it finishes without an error, and each entry is there once
            assertThat(second.get(30, TimeUnit.SECONDS).unchanged()).isEqualTo(2);
            assertThat(history(a)).containsExactly(Map.entry(1L, "w/s/null"));
            assertThat(history(b)).containsExactly(Map.entry(1L, "w/s/null"));
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    private static List<SeenRevision> seen(Instant at, AssignmentUpdate update) {
        return List.of(new SeenRevision(update, at));
    }

    private Map<Long, String> history(UUID caseId) {
        Map<Long, String> entries = new TreeMap<>();
        jdbc.query("""
                SELECT assignment_revision, assigned_worker_sub, supervisor_sub, jurisdiction
                  FROM case_assignment_history WHERE case_id = ?""", rs -> {
            entries.put(rs.getLong(1), rs.getString(2) + "/" + rs.getString(3) + "/" + rs.getString(4));
        }, caseId);
        return entries;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the first writer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
