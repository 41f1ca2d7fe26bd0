package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * The history keeps the first payload received at each revision, as the projection does, whatever the batching:
 * conflicting payloads for one (case, revision), in one batch and across batches, at random (the seed is printed;
 * {@code -Dseed=…} repeats a run).
 */
class ProjectorHistoryFirstPayloadIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();
    private static final int CASES = 300;

    private final JdbcTemplate jdbc = DB.jdbc();

    /** The first worker published at each (case, revision): what the projection and the history must both hold. */
    private final Map<UUID, Map<Long, String>> firstWorker = new HashMap<>();
    private final Map<UUID, Long> highest = new HashMap<>();
    private int sequence;

    @Test
    void shouldKeepTheFirstPayloadOfEachRevisionInTheHistoryAsTheProjectionDoes() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("ProjectorHistoryFirstPayloadIntegrationTests seed " + seed);
        Random random = new Random(seed);
        List<UUID> ids = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            ids.add(UUID.randomUUID());
        }
        try (EventPublisher publisher = new EventPublisher();
             LaterProjector projector = startLater()) {
            // Given a backlog (one batch per task) where a third of the revisions come twice with another worker,
            // sometimes right after the first, sometimes after newer revisions of the case
            publisher.publishAll(TOPICS.events(), interleave(ids, 0, 6, random));
            projector.start();
            awaitProjected(ids);

            // And then, across batches, more revisions with their second payloads, and second payloads of revisions
            // written before
            for (int round = 0; round < 3; round++) {
                List<SpecificRecord> later = interleave(ids, 6 + round * 2, 2, random);
                for (UUID id : ids) {
                    if (random.nextInt(4) == 0) {
                        later.add(random.nextInt(later.size() + 1), second(id, random.nextInt(6 + round * 2), random));
                    }
                }
                publisher.publishAll(TOPICS.events(), later);
                awaitProjected(ids);
            }
        }

        // Then the history holds the first payload at every revision, and agrees with the projection at its own
        List<String> wrong = new ArrayList<>();
        for (UUID id : ids) {
            Map<Long, String> history = new HashMap<>();
            jdbc.query("SELECT assignment_revision, assigned_worker_sub FROM case_assignment_history WHERE case_id = ?",
                    rs -> {
                        history.put(rs.getLong(1), rs.getString(2));
                    }, id);
            if (!history.equals(firstWorker.get(id))) {
                wrong.add(id + " history " + history + " first " + firstWorker.get(id));
            }
            String projected = jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                    String.class, id);
            if (!projected.equals(history.get(highest.get(id)))) {
                wrong.add(id + " projection " + projected + " history " + history.get(highest.get(id)));
            }
        }
        assertThat(wrong).as("seed " + seed).isEmpty();
    }

    /**
     * Revisions {@code from} to {@code from + count - 1} of every case, the cases interleaved at random; each revision,
     * one time in three, is followed later in its case by a second payload, either at once or after the case's newer
     * revisions.
     */
    private List<SpecificRecord> interleave(List<UUID> ids, int from, int count, Random random) {
        List<List<SpecificRecord>> perCase = new ArrayList<>();
        for (UUID id : ids) {
            List<SpecificRecord> events = new ArrayList<>();
            for (int r = from; r < from + count; r++) {
                events.add(first(id, r));
            }
            for (int r = from + count - 1; r >= from; r--) {
                if (random.nextInt(3) == 0) {
                    int later = random.nextBoolean() ? 0 : random.nextInt(from + count - r);
                    events.add(r - from + 1 + later, second(id, r, random));
                }
            }
            perCase.add(events);
        }
        List<SpecificRecord> merged = new ArrayList<>();
        List<Integer> next = new ArrayList<>(java.util.Collections.nCopies(perCase.size(), 0));
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < perCase.size(); i++) {
            open.add(i);
        }
        while (!open.isEmpty()) {
            int pick = random.nextInt(open.size());
            int c = open.get(pick);
            merged.add(perCase.get(c).get(next.get(c)));
            next.set(c, next.get(c) + 1);
            if (next.get(c) == perCase.get(c).size()) {
                open.remove(pick);
            }
        }
        return merged;
    }

    private SpecificRecord first(UUID id, long revision) {
        String worker = "w-" + (++sequence);
        firstWorker.computeIfAbsent(id, c -> new HashMap<>()).put(revision, worker);
        highest.merge(id, revision, Math::max);
        return revision == 0 ? CaseEvents.created(id).worker(worker).build()
                : CaseEvents.changed(id, revision).worker(worker).build();
    }

    /** Another payload at a revision already published: never what the history or the projection keep. */
    private SpecificRecord second(UUID id, long revision, Random random) {
        String worker = "again-" + (++sequence) + "-" + random.nextInt(1000);
        return revision == 0 ? CaseEvents.created(id).worker(worker).build()
                : CaseEvents.changed(id, revision).worker(worker).build();
    }

    private void awaitProjected(List<UUID> ids) {
        long expected = firstWorker.values().stream().mapToLong(Map::size).sum();
        await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
            assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignment_history", Long.class)).isEqualTo(expected);
            long atHighest = 0;
            for (UUID id : ids) {
                Long revision = jdbc.queryForObject("SELECT assignment_revision FROM case_assignments WHERE case_id = ?",
                        Long.class, id);
                atHighest += revision.equals(highest.get(id)) ? 1 : 0;
            }
            assertThat(atHighest).isEqualTo(ids.size());
        });
    }

    /** The projector, started once the first backlog is published, so that it reads it in few batches. */
    private static LaterProjector startLater() {
        return new LaterProjector();
    }

    private static final class LaterProjector implements AutoCloseable {
        private ProjectorInstance instance;

        void start() {
            instance = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        }

        @Override
        public void close() {
            if (instance != null) {
                instance.close();
            }
        }
    }
}
