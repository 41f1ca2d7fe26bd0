package org.caseassignments.backfill.verify;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.BatchReduction;
import org.springframework.jdbc.core.JdbcTemplate;

/** Compares batches of snapshot rows with the projection and keeps the counts and a bounded sample per kind. */
final class Comparison {

    private static final String READ_PROJECTION = """
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision
              FROM case_assignments
             WHERE case_id = ANY (?)
            """;

    /** One projection row or snapshot row, as shown in a sample. */
    record Assignment(String worker, String supervisor, long revision) {
        @Override
        public String toString() {
            return "r" + revision + " (" + worker + ", " + supervisor + ")";
        }
    }

    record Sample(Difference kind, UUID caseId, Assignment snapshot, Assignment projection) {
    }

    private final JdbcTemplate jdbc;
    private final int sampleSize;
    private final Map<Difference, Long> counts = new EnumMap<>(Difference.class);
    private final List<Sample> samples = new ArrayList<>();
    private long agreeing;

    Comparison(JdbcTemplate jdbc, int sampleSize) {
        this.jdbc = jdbc;
        this.sampleSize = sampleSize;
        for (Difference kind : Difference.values()) {
            counts.put(kind, 0L);
        }
    }

    /** Compares one batch; of several rows of one case in it, the highest revision is the snapshot's word. */
    void compare(List<AssignmentUpdate> rows) {
        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(rows);
        Map<UUID, Assignment> stored = read(survivors);
        for (AssignmentUpdate row : survivors) {
            Assignment snapshot = new Assignment(row.assignedWorkerSub(), row.supervisorSub(), row.revision());
            Assignment projection = stored.get(row.caseId());
            Difference kind = classify(snapshot, projection);
            if (kind == null) {
                agreeing++;
                continue;
            }
            counts.merge(kind, 1L, Long::sum);
            if (samples.stream().filter(s -> s.kind() == kind).count() < sampleSize) {
                samples.add(new Sample(kind, row.caseId(), snapshot, projection));
            }
        }
    }

    static Difference classify(Assignment snapshot, Assignment projection) {
        if (projection == null || projection.revision() < 0) {
            return Difference.MISSING;
        }
        if (projection.revision() < snapshot.revision()) {
            return Difference.BEHIND;
        }
        if (projection.revision() > snapshot.revision()) {
            return Difference.AHEAD;
        }
        boolean samePair = Objects.equals(projection.worker(), snapshot.worker())
                && Objects.equals(projection.supervisor(), snapshot.supervisor());
        return samePair ? null : Difference.DIVERGING;
    }

    private Map<UUID, Assignment> read(List<AssignmentUpdate> rows) {
        Map<UUID, Assignment> stored = new HashMap<>();
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(READ_PROJECTION)) {
                Array ids = connection.createArrayOf("uuid", rows.stream().map(AssignmentUpdate::caseId).toArray());
                ps.setArray(1, ids);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        stored.put(rs.getObject(1, UUID.class),
                                new Assignment(rs.getString(2), rs.getString(3), rs.getLong(4)));
                    }
                }
            }
            return null;
        });
        return stored;
    }

    long agreeing() {
        return agreeing;
    }

    Map<Difference, Long> counts() {
        return counts;
    }

    long differences() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    List<Sample> samples() {
        return samples;
    }
}
