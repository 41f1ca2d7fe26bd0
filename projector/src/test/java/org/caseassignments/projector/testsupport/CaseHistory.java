package org.caseassignments.projector.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.Rows;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A seeded random history: cases, each created and then changed a few times, delivered with
 * reordering and duplicates; some cases have entity rows (born unknown or carrying an old pair) or a
 * placeholder before any event. Its oracle is computed from the events alone: per case, the event
 * with the highest revision (the creation's pair when no change exists).
 */
public final class CaseHistory {

    final long seed;
    /** Events in delivery order. */
    public final List<SpecificRecord> deliveries;
    /** The final assignment of each case. */
    public final Map<UUID, ProjectionRows.Assignment> oracle;
    /** Every revision of each case the events hold: what the case's history must record, once each. */
    public final Map<UUID, Map<Long, ProjectionRows.Assignment>> revisions = new HashMap<>();
    private final Map<UUID, List<String>> entityRowsByCase;
    private final List<UUID> placeholders;

    private CaseHistory(long seed, List<SpecificRecord> deliveries, Map<UUID, ProjectionRows.Assignment> oracle,
                        Map<UUID, List<String>> entityRowsByCase, List<UUID> placeholders) {
        this.seed = seed;
        this.deliveries = deliveries;
        this.oracle = oracle;
        this.entityRowsByCase = entityRowsByCase;
        this.placeholders = placeholders;
        for (SpecificRecord event : deliveries) {
            ProjectionRows.Assignment assignment = event instanceof org.caseassignments.schemas.events.CaseCreated created
                    ? new ProjectionRows.Assignment(created.getAssignedWorkerSub(), created.getSupervisorSub(), 0)
                    : assignmentOf((org.caseassignments.schemas.events.CaseAssignmentChanged) event);
            revisions.computeIfAbsent(UUID.fromString(CaseEvents.caseIdOf(event)), c -> new java.util.TreeMap<>())
                    .putIfAbsent(assignment.revision(), assignment);
        }
    }

    private static ProjectionRows.Assignment assignmentOf(org.caseassignments.schemas.events.CaseAssignmentChanged changed) {
        return new ProjectionRows.Assignment(changed.getAssignedWorkerSub(), changed.getSupervisorSub(),
                changed.getAssignmentRevision());
    }

    /**
     * @param cases      number of cases
     * @param maxChanges each case gets 0..maxChanges assignment changes after its creation
     */
    public static CaseHistory generate(long seed, int cases, int maxChanges) {
        Random random = new Random(seed);
        List<List<SpecificRecord>> perCase = new ArrayList<>();
        Map<UUID, ProjectionRows.Assignment> oracle = new LinkedHashMap<>();
        Map<UUID, List<String>> entityRows = new HashMap<>();
        List<UUID> placeholders = new ArrayList<>();
        for (int c = 0; c < cases; c++) {
            UUID caseId = new UUID(random.nextLong(), random.nextLong());
            List<SpecificRecord> events = new ArrayList<>();
            String worker = sub(random, "w");
            String supervisor = sub(random, "s");
            events.add(CaseEvents.created(caseId).worker(worker).supervisor(supervisor).build());
            ProjectionRows.Assignment last = new ProjectionRows.Assignment(worker, supervisor, 0);
            int changes = random.nextInt(maxChanges + 1);
            for (int revision = 1; revision <= changes; revision++) {
                worker = sub(random, "w");
                supervisor = sub(random, "s");
                events.add(CaseEvents.changed(caseId, revision).worker(worker).supervisor(supervisor).build());
                last = new ProjectionRows.Assignment(worker, supervisor, revision);
            }
            perCase.add(events);
            oracle.put(caseId, last);
            int kind = random.nextInt(10);
            if (kind < 3) {
                entityRows.put(caseId, List.of(kind == 0 ? "placement-unknown" : "placement-old", "kinship-unknown"));
            } else if (kind == 3) {
                placeholders.add(caseId);
                entityRows.put(caseId, List.of("placement-unknown"));
            }
        }
        return new CaseHistory(seed, deliver(random, perCase), oracle, entityRows, placeholders);
    }

    /**
     * Interleaves the cases, moves some events ahead of earlier ones of their case, and repeats about 10%. Linear in the
     * number of events, so that a backlog of millions is generated in seconds.
     */
    private static List<SpecificRecord> deliver(Random random, List<List<SpecificRecord>> perCase) {
        List<SpecificRecord> order = new ArrayList<>();
        List<List<SpecificRecord>> pending = new ArrayList<>();
        List<int[]> next = new ArrayList<>();
        perCase.forEach(events -> {
            pending.add(new ArrayList<>(events));
            next.add(new int[1]);
        });
        while (!pending.isEmpty()) {
            int pick = random.nextInt(pending.size());
            List<SpecificRecord> events = pending.get(pick);
            int[] cursor = next.get(pick);
            int left = events.size() - cursor[0];
            // Out of order: a third of the time take a later event of the case first (it swaps places with the next).
            if (left > 1 && random.nextInt(3) == 0) {
                Collections.swap(events, cursor[0], cursor[0] + 1 + random.nextInt(left - 1));
            }
            order.add(events.get(cursor[0]++));
            if (cursor[0] == events.size()) {
                int last = pending.size() - 1;
                Collections.swap(pending, pick, last);
                Collections.swap(next, pick, last);
                pending.remove(last);
                next.remove(last);
            }
        }
        // Repeats: each a copy of a delivered event, delivered again after its first delivery.
        int size = order.size();
        List<long[]> repeats = new ArrayList<>();
        for (int d = 0; d < size / 10; d++) {
            int from = random.nextInt(size);
            repeats.add(new long[] {from + 1 + random.nextInt(size - from), from});
        }
        repeats.sort(Comparator.comparingLong(repeat -> repeat[0]));
        List<SpecificRecord> delivered = new ArrayList<>(size + repeats.size());
        int repeat = 0;
        for (int position = 0; position <= size; position++) {
            while (repeat < repeats.size() && repeats.get(repeat)[0] == position) {
                delivered.add(order.get((int) repeats.get(repeat++)[1]));
            }
            if (position < size) {
                delivered.add(order.get(position));
            }
        }
        return delivered;
    }

    private static String sub(Random random, String prefix) {
        return random.nextInt(8) == 0 ? null : prefix + "-" + random.nextInt(50);
    }

    /** Inserts the placeholders and entity rows that exist before any event is delivered. */
    public void seedRows(JdbcTemplate jdbc) {
        placeholders.forEach(caseId -> Rows.assignment(caseId).placeholder().insert(jdbc));
        entityRowsByCase.forEach((caseId, rows) -> rows.forEach(row -> {
            Rows.EntityRow entity = row.startsWith("placement") ? Rows.placement(caseId) : Rows.kinshipOption(caseId);
            if (row.endsWith("unknown")) {
                entity.bornUnknown();
            } else {
                entity.worker("w-old").supervisor("s-old").revision(0);
            }
            entity.insert(jdbc);
        }));
    }

    public int entityRowCount() {
        return entityRowsByCase.values().stream().mapToInt(List::size).sum();
    }

    /** A part of the deliveries, for tests that deliver in several steps. */
    public List<SpecificRecord> slice(int part, int parts) {
        int from = deliveries.size() * part / parts;
        int to = deliveries.size() * (part + 1) / parts;
        return deliveries.subList(from, to);
    }
}
