package org.caseassignments.testkit;

import java.io.StringReader;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.postgresql.PGConnection;

/**
 * The drain benchmarks' workload, in one place: the order in which a backlog's events are delivered, and the entity
 * rows seeded before it. Used by the projector's drain and rebuild benchmarks and by the store's statement costs, so
 * that their figures are of the same data.
 */
public final class DrainWorkload {

    /** What one delivery becomes: a record to publish, or the values a writer is given. */
    @FunctionalInterface
    public interface Delivery<T> {

        /**
         * @param position the delivery's place in the order before the disorder (swaps and redeliveries) is applied
         */
        T of(UUID caseId, int revision, String worker, String supervisor, int position);
    }

    private DrainWorkload() {
    }

    /** {@code cases} random case ids, drawn from {@code random} in order (the benchmarks' seeds reproduce them). */
    public static List<UUID> caseIds(Random random, int cases) {
        List<UUID> caseIds = new ArrayList<>(cases);
        for (int c = 0; c < cases; c++) {
            caseIds.add(new UUID(random.nextLong(), random.nextLong()));
        }
        return caseIds;
    }

    /**
     * Each case: created (revision 0), then changes 1..{@code changes}, interleaved across cases round by round (a case's
     * next event comes about as many events later as there are cases); then {@code swaps} pairs of consecutive
     * revisions of a random case swapped, and {@code extra} random deliveries repeated later on.
     */
    public static <T> List<T> deliveries(Random random, List<UUID> caseIds, int changes, int extra, int swaps,
                                         Delivery<T> delivery) {
        Map<UUID, int[]> positions = new HashMap<>();
        List<T> order = new ArrayList<>();
        for (int revision = 0; revision <= changes; revision++) {
            List<UUID> shuffled = new ArrayList<>(caseIds);
            Collections.shuffle(shuffled, random);
            for (UUID caseId : shuffled) {
                positions.computeIfAbsent(caseId, id -> new int[changes + 1])[revision] = order.size();
                String worker = "worker-" + random.nextInt(5000);
                String supervisor = "supervisor-" + random.nextInt(500);
                order.add(delivery.of(caseId, revision, worker, supervisor, order.size()));
            }
        }
        for (int s = 0; s < swaps; s++) {
            // A later revision overtakes the one before it.
            int[] of = positions.get(caseIds.get(random.nextInt(caseIds.size())));
            int revision = random.nextInt(changes);
            Collections.swap(order, of[revision], of[revision + 1]);
            int moved = of[revision];
            of[revision] = of[revision + 1];
            of[revision + 1] = moved;
        }
        for (int d = 0; d < extra; d++) {
            // A redelivery, later than the original.
            int from = random.nextInt(order.size());
            order.add(from + 1 + random.nextInt(order.size() - from), order.get(from));
        }
        return order;
    }

    /**
     * Entity rows: a placement for half the cases (half of those born while the case was unknown), a kinship option
     * for a quarter; then {@code ANALYZE}.
     */
    public static void seedEntityRows(TestDatabase db, List<UUID> caseIds, Random random) {
        StringBuilder placements = new StringBuilder();
        StringBuilder kinship = new StringBuilder();
        for (UUID caseId : caseIds) {
            int kind = random.nextInt(4);
            if (kind < 2) {
                placements.append(UUID.randomUUID()).append('\t').append(caseId).append("\tPROPOSED\t")
                        .append(kind == 0 ? "\\N\t\\N" : "w-old\ts-old").append("\t0\tseed\n");
            }
            if (kind == 3) {
                kinship.append(UUID.randomUUID()).append('\t').append(caseId)
                        .append("\tAda Relative\taunt\t\\N\t\\N\t0\tseed\n");
            }
        }
        copy(db, "placements (id, case_id, status, assigned_worker_sub, supervisor_sub, assignment_revision, created_by)",
                placements.toString());
        copy(db, "kinship_options (id, case_id, relative_name, relationship, assigned_worker_sub, supervisor_sub, "
                + "assignment_revision, created_by)", kinship.toString());
        db.jdbc().execute("ANALYZE");
    }

    /** {@code COPY target FROM STDIN} of tab-separated {@code rows}; the rows copied. */
    public static long copy(TestDatabase db, String target, String rows) {
        try (Connection connection = db.dataSource().getConnection()) {
            return connection.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY " + target + " FROM STDIN", new StringReader(rows));
        } catch (Exception e) {
            throw new IllegalStateException("COPY into " + target + " failed", e);
        }
    }
}
