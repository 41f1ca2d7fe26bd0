package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A refusal is charged to the event that met the projection's checks, and no event is dropped with its case: with a
 * trigger refusing one worker, events of a few cases with refused and accepted payloads at interleaved revisions are
 * written in one batch, one event per batch and random splits, through the jobs' writer and the projector's. Each batch
 * dead-letters the refused events of the cases whose newest revision in it is refused (they are then written one at a
 * time) and keeps every other event in the history, and each case ends at its newest accepted revision (the seed is
 * printed; {@code -Dseed=…} repeats a run).
 */
class BatchWriterRefusalChargedToItsEventIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final String REFUSED = "refused-by-trigger";
    private static final int CASES = 5;
    private static final int REVISIONS = 10;

    static {
        RefusingTrigger.refusing(DB.jdbc(), REFUSED);
    }

    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
    private final WriteMetrics metrics = new WriteMetrics(new SimpleMeterRegistry(), "test");

    /** One event of case number {@code c}. */
    record Event(int c, long revision, String worker) {
    }

    /** What a delivery ended with, by case number: the events refused, each case's row and its history. */
    record Outcome(List<String> refused, List<String> projection, List<String> history) {
    }

    @Test
    void shouldDeadLetterTheRefusedEventsOfACaseWhoseNewestInItsBatchIsRefusedAndKeepEveryOtherEventInTheHistory() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("BatchWriterRefusalChargedToItsEventIntegrationTests seed " + seed);
        Random random = new Random(seed);
        List<Event> events = interleaved(random);

        // Given one event per batch, which judges every event on its own
        Outcome alone = deliver(events, everyOne(events.size()), false);

        // Then every event with the refused worker is refused, no other, and the history never holds it
        assertThat(alone.refused()).as("seed " + seed).containsExactlyInAnyOrderElementsOf(
                events.stream().filter(e -> e.worker().equals(REFUSED)).map(e -> e.c() + "@" + e.revision()).toList());
        assertThat(String.join(",", alone.history())).as("seed " + seed).doesNotContain(REFUSED);
        assertThat(alone).as("seed " + seed).isEqualTo(expected(events, everyOne(events.size())));

        // And every other batching, through the jobs' writer and the projector's, ends as the rule says
        for (boolean projectors : List.of(false, true)) {
            List<Integer> oneBatch = List.of(events.size());
            assertThat(deliver(events, oneBatch, projectors)).as("one batch, seed " + seed)
                    .isEqualTo(expected(events, oneBatch));
            for (int split = 0; split < 3; split++) {
                List<Integer> sizes = randomSplits(events.size(), random);
                assertThat(deliver(events, sizes, projectors)).as("random splits " + sizes + ", seed " + seed)
                        .isEqualTo(expected(events, sizes));
            }
        }
    }

    @Test
    void shouldSetARefusedLowerRevisionAsideOnceAndKeepItOutOfTheHistoryWhenALaterRevisionFailsOnceAfterIt() {
        // Given a trigger that fails the first write of one worker over revision 4 with a serialization failure, once
        // (a transient failure: the sequence is not rolled back with it)
        jdbc.execute("CREATE SEQUENCE test_fails_once");
        jdbc.execute("""
                CREATE FUNCTION test_fails_once() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'UPDATE' AND OLD.assignment_revision = 4 AND NEW.assigned_worker_sub = 'fails-once'
                       AND nextval('test_fails_once') = 1 THEN
                        RAISE EXCEPTION 'test trigger fails once' USING ERRCODE = 'serialization_failure';
                    END IF;
                    RETURN NEW;
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_fails_once BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_fails_once()""");
        try {
            // And revisions 1 to 6 of one case in one batch, revisions 3 and 6 refused (so the case is written one
            // event at a time), revision 5 failing once after revision 4 took
            UUID caseId = UUID.randomUUID();
            List<AssignmentUpdate> setAside = List.of(AssignmentUpdate.changed(caseId, "w-1", "s", 1),
                    AssignmentUpdate.changed(caseId, "w-2", "s", 2), AssignmentUpdate.changed(caseId, REFUSED, "s", 3),
                    AssignmentUpdate.changed(caseId, "w-4", "s", 4), AssignmentUpdate.changed(caseId, "fails-once", "s", 5));
            AssignmentUpdate kept = AssignmentUpdate.changed(caseId, REFUSED, "s", 6);
            BatchWriter writer = new BatchWriter(transaction, new AssignmentWriter(jdbc), metrics, new FixedBackOff(0, 10),
                    new StopSignal(), WriterHealth.unwatched());

            // When the projector's writer writes it, retrying after the failure
            List<AssignmentUpdate> batch = new ArrayList<>(setAside);
            batch.add(kept);
            BatchWriter.Written<AssignmentUpdate> written = writer.write(BatchReduction.reduce(batch, u -> u,
                    u -> Instant.EPOCH));

            // Then the failure happened and was retried
            assertThat(jdbc.queryForObject("SELECT last_value FROM test_fails_once", Long.class)).isEqualTo(2L);
            // And revisions 3 and 6 are set aside once, and the history holds every other revision, not revision 3's
            // refused payload (which the guard would have skipped once revision 4 took)
            assertThat(written.refused()).extracting(r -> r.item().revision()).containsExactly(3L, 6L);
            assertThat(jdbc.queryForList("SELECT assignment_revision || ':' || assigned_worker_sub "
                    + "FROM case_assignment_history WHERE case_id = ? ORDER BY assignment_revision", String.class, caseId))
                    .containsExactly("1:w-1", "2:w-2", "4:w-4", "5:fails-once");
            assertThat(jdbc.queryForObject("SELECT assignment_revision FROM case_assignments WHERE case_id = ?",
                    Long.class, caseId)).isEqualTo(5L);
        } finally {
            jdbc.execute("DROP TRIGGER test_fails_once ON case_assignments");
            jdbc.execute("DROP FUNCTION test_fails_once()");
            jdbc.execute("DROP SEQUENCE test_fails_once");
        }
    }

    /** Revisions 0 to REVISIONS - 1 of each case, about a third of them with the refused worker, cases interleaved. */
    private static List<Event> interleaved(Random random) {
        List<List<Event>> perCase = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            List<Event> own = new ArrayList<>();
            for (int r = 0; r < REVISIONS; r++) {
                own.add(new Event(c, r, random.nextInt(3) == 0 ? REFUSED : "w-" + c + "-" + r));
            }
            perCase.add(own);
        }
        List<Event> merged = new ArrayList<>();
        int[] next = new int[CASES];
        List<Integer> open = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            open.add(c);
        }
        while (!open.isEmpty()) {
            int pick = random.nextInt(open.size());
            int c = open.get(pick);
            merged.add(perCase.get(c).get(next[c]++));
            if (next[c] == REVISIONS) {
                open.remove(pick);
            }
        }
        return merged;
    }

    /**
     * The rule, per batch and case: when the case's newest event in the batch carries the refused worker, its refused
     * events are dead-lettered and its others go into the history (each written alone); otherwise all its events go
     * into the history with the newest. Each case's row is its newest accepted event.
     */
    private static Outcome expected(List<Event> events, List<Integer> sizes) {
        List<String> refused = new ArrayList<>();
        List<TreeMap<Long, String>> history = new ArrayList<>();
        List<String> projection = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            history.add(new TreeMap<>());
            projection.add("none");
        }
        int from = 0;
        for (int size : sizes) {
            List<Event> batch = events.subList(from, from + size);
            from += size;
            Map<Integer, Event> newest = new HashMap<>();
            batch.forEach(e -> newest.merge(e.c(), e, (a, b) -> a.revision() > b.revision() ? a : b));
            for (Event e : batch) {
                boolean refusedAlone = e.worker().equals(REFUSED) && newest.get(e.c()).worker().equals(REFUSED);
                if (refusedAlone) {
                    refused.add(e.c() + "@" + e.revision());
                } else {
                    history.get(e.c()).put(e.revision(), e.revision() + ":" + e.worker());
                }
            }
        }
        for (Event e : events) {
            if (!e.worker().equals(REFUSED)) {
                projection.set(e.c(), e.revision() + ":" + e.worker()); // each case's events come in revision order
            }
        }
        Collections.sort(refused);
        return new Outcome(refused, projection, history.stream().map(h -> String.join(" ", h.values())).toList());
    }

    private static List<Integer> everyOne(int events) {
        return Collections.nCopies(events, 1);
    }

    private static List<Integer> randomSplits(int events, Random random) {
        List<Integer> sizes = new ArrayList<>();
        for (int left = events; left > 0; ) {
            int size = Math.min(left, 1 + random.nextInt(12));
            sizes.add(size);
            left -= size;
        }
        return sizes;
    }

    /**
     * Writes the events in batches of the given sizes, for cases of their own: through {@code BatchReduction.reduce} (the replay's
     * and the re-drive's reduction, with the jobs' writer), or as the projector does (its own reduction, the kept
     * event of each case with the events it set aside, with a retrying writer).
     */
    private Outcome deliver(List<Event> events, List<Integer> sizes, boolean projectors) {
        List<UUID> ids = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            ids.add(UUID.randomUUID());
        }
        AssignmentWriter assignments = new AssignmentWriter(jdbc);
        BatchWriter writer = projectors
                ? new BatchWriter(transaction, assignments, metrics, new FixedBackOff(0, 10), new StopSignal(),
                        WriterHealth.unwatched())
                : BatchWriter.once(transaction, assignments, metrics);
        List<String> refused = new ArrayList<>();
        int from = 0;
        for (int size : sizes) {
            List<Event> batch = events.subList(from, from + size);
            from += size;
            List<Event> refusedNow = projectors ? asTheProjector(writer, batch, ids)
                    : writer.write(BatchReduction.reduce(batch, e -> update(e, ids), e -> Instant.EPOCH)).refused().stream()
                            .map(r -> r.item()).toList();
            refusedNow.forEach(e -> refused.add(e.c() + "@" + e.revision()));
        }
        Collections.sort(refused);
        List<String> projection = new ArrayList<>();
        List<String> history = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            projection.add(jdbc.query("SELECT assignment_revision || ':' || assigned_worker_sub FROM case_assignments "
                    + "WHERE case_id = ?", rs -> rs.next() ? rs.getString(1) : "none", ids.get(c)));
            history.add(String.join(" ", jdbc.queryForList("SELECT assignment_revision || ':' || assigned_worker_sub "
                    + "FROM case_assignment_history WHERE case_id = ? ORDER BY assignment_revision", String.class, ids.get(c))));
        }
        return new Outcome(refused, projection, history);
    }

    /** The projector's reduction: its table of the newest event per case, the others set aside in the order they came. */
    private static List<Event> asTheProjector(BatchWriter writer, List<Event> batch, List<UUID> ids) {
        BatchReduction.NewestPerCase<Event> kept = new BatchReduction.NewestPerCase<>();
        for (Event e : batch) {
            kept.add(e, update(e, ids), Instant.EPOCH);
        }
        return writer.write(kept.batch()).refused().stream().map(r -> r.item()).toList();
    }

    private static AssignmentUpdate update(Event e, List<UUID> ids) {
        return AssignmentUpdate.changed(ids.get(e.c()), e.worker(), "s", e.revision());
    }
}
