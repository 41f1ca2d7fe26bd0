package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.projector.testsupport.DeadLetterReader;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * No event is dropped with its case, whatever the batching: a trigger refuses one worker; events of many cases with
 * refused and accepted payloads at interleaved revisions are read as a backlog (large batches, many revisions of a
 * case in one) and then live (small batches). Each refused event is either dead-lettered or in the history (when a
 * newer revision of its case shared its batch), never both; the history holds every accepted revision; each case holds
 * its newest accepted revision; and a refused event that is its case's newest in its batch — the last of the backlog
 * and the last live one of each case — is dead-lettered (the seed is printed; {@code -Dseed=…} repeats a run).
 */
class ProjectorRefusalChargedToItsEventIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final String REFUSED = "refused-by-trigger";
    private static final int CASES = 40;
    private static final int BACKLOG = 8;
    private static final int LIVE = 4;
    /** Each case's last revision. */
    private static final int LAST = BACKLOG + LIVE - 1;

    static {
        RefusingTrigger.refusing(DB.jdbc(), REFUSED);
    }

    private final JdbcTemplate jdbc = DB.jdbc();
    /** Each case's accepted workers by revision: the history one event per batch gives. */
    private final Map<UUID, TreeMap<Long, String>> accepted = new HashMap<>();
    private final Map<UUID, Integer> refusedPerCase = new HashMap<>();
    /** Refused events no newer revision of their case can share a batch with: each is surely dead-lettered. */
    private int refusedLastOfTheirRun;

    @Test
    void shouldDeadLetterOrKeepInTheHistoryEachRefusedEventAndKeepEveryAcceptedOneWhateverTheBatching() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ProjectorRefusalChargedToItsEventIntegrationTests seed " + seed);
        Random random = new Random(seed);
        List<UUID> ids = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            ids.add(UUID.randomUUID());
        }
        String group = ProjectorInstance.uniqueApplicationId();
        try (EventPublisher publisher = new EventPublisher()) {
            // Given a backlog read in few batches: eight revisions of each case, a quarter of them refused
            publisher.publishAll(TOPICS.events(), interleaved(ids, 0, BACKLOG, random));
            try (ProjectorInstance projector = ProjectorInstance.start(DB, TOPICS, group)) {
                awaitProjected(ids, group);
                // And then live events, one or a few per batch
                for (int round = 0; round < LIVE; round++) {
                    for (SpecificRecord event : interleaved(ids, BACKLOG + round, 1, random)) {
                        publisher.publishInOrder(TOPICS.events(), List.of(event));
                    }
                }
                awaitProjected(ids, group);
            }
        }

        // Then each refused event is dead-lettered or kept in the history, never both, and those that were their
        // case's newest in any batch are dead-lettered
        Map<UUID, Integer> letters = new HashMap<>();
        DeadLetterReader.read(TOPICS.deadLetter(), refusedLastOfTheirRun, Duration.ofSeconds(2)).forEach(letter ->
                letters.merge(UUID.fromString(new String(letter.key(), StandardCharsets.UTF_8)), 1, Integer::sum));
        // and each case holds its newest accepted revision, and a history of every accepted revision
        List<String> wrong = new ArrayList<>();
        for (UUID id : ids) {
            Map<Long, String> history = new TreeMap<>();
            jdbc.query("SELECT assignment_revision, assigned_worker_sub FROM case_assignment_history WHERE case_id = ?",
                    rs -> {
                        history.put(rs.getLong(1), rs.getString(2));
                    }, id);
            TreeMap<Long, String> expected = accepted.getOrDefault(id, new TreeMap<>());
            Map<Long, String> acceptedInHistory = new TreeMap<>(history);
            acceptedInHistory.values().removeIf(REFUSED::equals);
            if (!acceptedInHistory.equals(expected)) {
                wrong.add(id + " history " + history + " expected the accepted " + expected);
            }
            int refusedInHistory = history.size() - acceptedInHistory.size();
            if (letters.getOrDefault(id, 0) + refusedInHistory != refusedPerCase.getOrDefault(id, 0)) {
                wrong.add(id + " " + letters.getOrDefault(id, 0) + " dead letters and " + refusedInHistory
                        + " refused in the history, of " + refusedPerCase.getOrDefault(id, 0) + " refused");
            }
            String row = jdbc.query("SELECT assignment_revision || ':' || assigned_worker_sub FROM case_assignments "
                    + "WHERE case_id = ?", rs -> rs.next() ? rs.getString(1) : null, id);
            String newest = expected.isEmpty() ? null : expected.lastKey() + ":" + expected.lastEntry().getValue();
            if (!java.util.Objects.equals(row, newest)) {
                wrong.add(id + " projection " + row + " expected " + newest);
            }
        }
        assertThat(wrong).as("seed " + seed).isEmpty();
        assertThat(letters.values().stream().mapToInt(Integer::intValue).sum()).as("seed " + seed)
                .isGreaterThanOrEqualTo(refusedLastOfTheirRun);
    }

    /** Revisions {@code from} to {@code from + count - 1} of every case, in order per case, the cases interleaved. */
    private List<SpecificRecord> interleaved(List<UUID> ids, int from, int count, Random random) {
        List<List<SpecificRecord>> perCase = new ArrayList<>();
        for (UUID id : ids) {
            List<SpecificRecord> events = new ArrayList<>();
            for (int r = from; r < from + count; r++) {
                events.add(event(id, r, random.nextInt(4) == 0));
            }
            perCase.add(events);
        }
        List<SpecificRecord> merged = new ArrayList<>();
        int[] next = new int[perCase.size()];
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < perCase.size(); i++) {
            open.add(i);
        }
        while (!open.isEmpty()) {
            int pick = random.nextInt(open.size());
            int c = open.get(pick);
            merged.add(perCase.get(c).get(next[c]++));
            if (next[c] == perCase.get(c).size()) {
                open.remove(pick);
            }
        }
        return merged;
    }

    private SpecificRecord event(UUID id, long revision, boolean refused) {
        String worker = refused ? REFUSED : "w-" + revision + "-" + id.toString().substring(0, 8);
        if (refused) {
            refusedPerCase.merge(id, 1, Integer::sum);
            if (revision == BACKLOG - 1 || revision == LAST) {
                refusedLastOfTheirRun++;
            }
        } else {
            accepted.computeIfAbsent(id, c -> new TreeMap<>()).put(revision, worker);
        }
        return revision == 0 ? CaseEvents.created(id).worker(worker).build()
                : CaseEvents.changed(id, revision).worker(worker).build();
    }

    private void awaitProjected(List<UUID> ids, String group) {
        await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(
                () -> assertThat(KafkaOffsets.caughtUp(group, TOPICS.events(), 3)).isTrue());
    }
}
