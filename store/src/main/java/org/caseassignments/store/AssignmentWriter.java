package org.caseassignments.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one implementation of the never-rewind write. Runs inside the caller's transaction (Spring's
 * {@code DataSourceUtils} binding, so wrap a batch in one {@code TransactionTemplate}).
 *
 * <p>Lock order is a contract: the projection rows first, sorted by case id, then the placement
 * and kinship rows of the cases whose projection row moved. A create transaction holding
 * {@code FOR SHARE} on a projection row therefore makes this writer wait until the create commits,
 * after which the entity update sees and corrects the row it inserted.
 */
public class AssignmentWriter {

    /**
     * One statement per batch. {@code ON CONFLICT DO UPDATE} locks every conflicting row, also those
     * its {@code WHERE} rejects, so entity rows are only touched while their case's row is held.
     *
     * <p>The outer query classifies each update in the same statement: it sees the rows as they were
     * when the statement started ({@code prior}), the upsert's own changes are invisible to it. A row
     * that a concurrent writer changed between the statement's start and its row lock is still written
     * exactly by the guard (which judges the locked, newest version); only its class can then be a
     * neighbouring one (advanced for converged, skipped as older for unchanged).
     */
    private static final String UPSERT_PROJECTION = """
            WITH proposed AS (
                SELECT u.case_id, u.worker, u.supervisor, u.revision, u.position
                  FROM unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[]) WITH ORDINALITY
                       AS u(case_id, worker, supervisor, revision, position)
            ), written AS (
                INSERT INTO case_assignments AS case_assignments
                       (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, updated_at)
                SELECT p.case_id, p.worker, p.supervisor, p.revision, now()
                  FROM proposed p
                 ORDER BY p.position
                ON CONFLICT (case_id) DO UPDATE
                   SET assigned_worker_sub = EXCLUDED.assigned_worker_sub,
                       supervisor_sub      = EXCLUDED.supervisor_sub,
                       assignment_revision = EXCLUDED.assignment_revision,
                       updated_at          = now()
                 WHERE %s
                RETURNING case_id, (xmax = 0) AS inserted
            )
            SELECT p.case_id,
                   CASE WHEN w.inserted                                     THEN 'INSERTED'
                        WHEN w.case_id IS NOT NULL
                             AND prior.assignment_revision = p.revision      THEN 'CONVERGED'
                        WHEN w.case_id IS NOT NULL                           THEN 'ADVANCED'
                        WHEN prior.assignment_revision = p.revision          THEN 'UNCHANGED'
                        ELSE 'SKIPPED_OLDER'
                   END AS outcome
              FROM proposed p
              LEFT JOIN written w ON w.case_id = p.case_id
              LEFT JOIN case_assignments prior ON prior.case_id = p.case_id
             ORDER BY p.position
            """;

    /**
     * Entity rows converge to their case's projection row: they take its triple when their revision
     * is lower, or equal with another pair (a row born while its case was unknown is healed by
     * {@code case.created}; a backfill converges at an equal revision). Never while the case is unknown.
     */
    private static final String FOLLOW_PROJECTION = """
            UPDATE %1$s AS e
               SET assigned_worker_sub = ca.assigned_worker_sub,
                   supervisor_sub      = ca.supervisor_sub,
                   assignment_revision = ca.assignment_revision,
                   row_version         = e.row_version + 1,
                   updated_at          = now()
              FROM case_assignments ca, %1$s AS prior
             WHERE ca.case_id = ANY (?::uuid[])
               AND ca.assignment_revision >= 0
               AND e.case_id = ca.case_id
               AND prior.id = e.id
               AND (e.assignment_revision < ca.assignment_revision
                    OR (e.assignment_revision = ca.assignment_revision
                        AND (e.assigned_worker_sub, e.supervisor_sub)
                            IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub)))
            RETURNING prior.assignment_revision = ca.assignment_revision AS healed
            """;

    private static final String INSERT_PLACEHOLDER = """
            INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, updated_at)
            VALUES (?, NULL, NULL, -1, now())
            ON CONFLICT (case_id) DO NOTHING
            """;

    private final JdbcTemplate jdbc;

    public AssignmentWriter(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Applies a batch under its guard: reduces to the highest revision per case, upserts the
     * projection rows in case-id order, then brings the entity rows of the moved cases along.
     * All updates of one call must share one guard. The result tells each case's {@link Outcome}.
     */
    public ApplyResult apply(List<AssignmentUpdate> updates) {
        if (updates.isEmpty()) {
            return new ApplyResult(0, List.of(), List.of(), 0, 0, 0, Map.of());
        }
        Guard guard = updates.get(0).guard();
        for (AssignmentUpdate update : updates) {
            if (update.guard() != guard) {
                throw new IllegalArgumentException("one apply takes one guard; got " + guard + " and " + update.guard());
            }
        }
        List<AssignmentUpdate> survivors = BatchReduction.highestRevisionPerCase(updates);
        Map<UUID, Outcome> outcomes = new LinkedHashMap<>();
        List<UUID> inserted = new ArrayList<>();
        List<UUID> advanced = new ArrayList<>();
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(UPSERT_PROJECTION.formatted(guard.condition))) {
                bindUpdates(connection, ps, survivors);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        UUID caseId = rs.getObject("case_id", UUID.class);
                        Outcome outcome = Outcome.valueOf(rs.getString("outcome"));
                        outcomes.put(caseId, outcome);
                        if (outcome == Outcome.INSERTED) {
                            inserted.add(caseId);
                        } else if (outcome == Outcome.ADVANCED || outcome == Outcome.CONVERGED) {
                            advanced.add(caseId);
                        }
                    }
                }
            }
            return null;
        });
        List<UUID> moved = new ArrayList<>(inserted);
        moved.addAll(advanced);
        int[] placements = followProjection("placements", moved);
        int[] kinship = followProjection("kinship_options", moved);
        return new ApplyResult(survivors.size(), inserted, advanced, placements[0], kinship[0], placements[1] + kinship[1],
                outcomes);
    }

    /**
     * Inserts a placeholder (revision −1, no worker, no supervisor) for a case with no projection row,
     * so a create on an unknown case has a row to hold {@code FOR SHARE}. Does nothing if a row exists.
     *
     * @return whether a placeholder was inserted
     */
    public boolean insertPlaceholder(UUID caseId) {
        return jdbc.update(INSERT_PLACEHOLDER, caseId) == 1;
    }

    /** @return {updated rows, of which healed} */
    private int[] followProjection(String table, List<UUID> cases) {
        if (cases.isEmpty()) {
            return new int[] {0, 0};
        }
        int[] counts = {0, 0};
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(FOLLOW_PROJECTION.formatted(table))) {
                ps.setArray(1, connection.createArrayOf("uuid", cases.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        counts[0]++;
                        if (rs.getBoolean("healed")) {
                            counts[1]++;
                        }
                    }
                }
            }
            return null;
        });
        return counts;
    }

    private static void bindUpdates(Connection connection, PreparedStatement ps, List<AssignmentUpdate> updates)
            throws SQLException {
        int n = updates.size();
        Object[] caseIds = new Object[n];
        Object[] workers = new Object[n];
        Object[] supervisors = new Object[n];
        Object[] revisions = new Object[n];
        for (int i = 0; i < n; i++) {
            AssignmentUpdate u = updates.get(i);
            caseIds[i] = u.caseId();
            workers[i] = u.assignedWorkerSub();
            supervisors[i] = u.supervisorSub();
            revisions[i] = u.revision();
        }
        Array[] arrays = {
                connection.createArrayOf("uuid", caseIds),
                connection.createArrayOf("text", workers),
                connection.createArrayOf("text", supervisors),
                connection.createArrayOf("bigint", revisions)};
        for (int i = 0; i < arrays.length; i++) {
            ps.setArray(i + 1, arrays[i]);
        }
    }
}
