package org.caseassignments.backfill.rebuild;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.caseassignments.backfill.SummaryLines;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How the shadow differs from the live projection, case by case, in one pass over both: counts of each kind and a
 * bounded sample. Read without a lock, so a case the projector moves while it runs may show as live ahead.
 */
final class ProjectionDiff {

    /** Kinds, in report order, each with the label the report prints. */
    static final Map<String, String> KINDS = kinds();

    private static final String DIFF = """
            WITH kinded AS (
                SELECT coalesce(l.case_id, s.case_id) AS case_id,
                       CASE WHEN s.case_id IS NULL THEN 'only_live'
                            WHEN l.case_id IS NULL THEN 'only_rebuilt'
                            WHEN l.assignment_revision > s.assignment_revision THEN 'live_higher'
                            WHEN l.assignment_revision < s.assignment_revision THEN 'live_lower'
                            WHEN (l.assigned_worker_sub, l.supervisor_sub)
                                 IS DISTINCT FROM (s.assigned_worker_sub, s.supervisor_sub) THEN 'pair_differs'
                            WHEN l.jurisdiction IS DISTINCT FROM s.jurisdiction THEN 'jurisdiction_differs'
                       END AS kind,
                       l.assignment_revision AS live_revision, s.assignment_revision AS rebuilt_revision,
                       l.assigned_worker_sub AS live_worker, s.assigned_worker_sub AS rebuilt_worker
                  FROM case_assignments l
                  FULL JOIN case_assignments_rebuild s ON s.case_id = l.case_id),
            ranked AS (
                SELECT k.*, count(*) OVER (PARTITION BY kind) AS of_kind,
                       row_number() OVER (PARTITION BY kind ORDER BY case_id) AS n
                  FROM kinded k
                 WHERE kind IS NOT NULL)
            SELECT * FROM ranked WHERE n <= greatest(?, 1) ORDER BY kind, n
            """;

    /** One differing case of the sample. */
    record Sample(String kind, Object caseId, Long liveRevision, Long rebuiltRevision, String liveWorker,
                  String rebuiltWorker) {
    }

    /** Counts per kind (every kind present, zero when none) and the sample. */
    record Differences(Map<String, Long> counts, List<Sample> samples) {

        long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        void print(PrintWriter out, int sample) {
            KINDS.forEach((kind, label) -> SummaryLines.count(out, label, counts.get(kind)));
            if (sample > 0) {
                samples.forEach(s -> out.printf(Locale.ROOT, "    %s %s: live revision %s (%s), rebuilt %s (%s)%n",
                        s.kind(), s.caseId(), s.liveRevision(), s.liveWorker(), s.rebuiltRevision(), s.rebuiltWorker()));
            }
        }
    }

    private final JdbcTemplate jdbc;

    ProjectionDiff(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Differences compare(int sample) {
        Map<String, Long> counts = new LinkedHashMap<>();
        KINDS.keySet().forEach(kind -> counts.put(kind, 0L));
        List<Sample> samples = jdbc.query(DIFF, (rs, i) -> {
            counts.put(rs.getString("kind"), rs.getLong("of_kind"));
            return new Sample(rs.getString("kind"), rs.getObject("case_id"), (Long) rs.getObject("live_revision"),
                    (Long) rs.getObject("rebuilt_revision"), rs.getString("live_worker"), rs.getString("rebuilt_worker"));
        }, sample);
        return new Differences(counts, sample > 0 ? samples : List.of());
    }

    private static Map<String, String> kinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("only_live", "cases only in the live table");
        kinds.put("only_rebuilt", "cases only in the rebuilt table");
        kinds.put("live_higher", "live revision higher");
        kinds.put("live_lower", "live revision lower");
        kinds.put("pair_differs", "same revision, other pair");
        kinds.put("jurisdiction_differs", "same revision, other jurisdiction");
        return kinds;
    }
}
