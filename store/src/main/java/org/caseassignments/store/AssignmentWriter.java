package org.caseassignments.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one implementation of the never-rewind write. Runs inside the caller's transaction (Spring's
 * {@code DataSourceUtils} binding, so wrap a batch in one {@code TransactionTemplate}).
 *
 * <p>Lock order is a contract ({@link LockOrder}, the one statement of it): the queues of the cases API writes hold
 * when the first try times out ({@link CaseQueue}), the projection rows, sorted by case id, then the placement and kinship rows of the cases whose projection row moved; never a foster home (the
 * entity-copy update changes neither a placement's status nor its home, so the occupancy trigger stays silent). A create transaction holding
 * {@code FOR SHARE} on a projection row therefore makes this writer wait until the create commits,
 * after which the entity update sees and corrects the row it inserted.
 */
public class AssignmentWriter {

    /**
     * Opens the upsert's text, so {@code pg_stat_activity} (which keeps only the first
     * {@code track_activity_query_size} bytes of a statement) always shows which statement a backend runs.
     */
    public static final String UPSERT_NAME = "/* case_assignments upsert */ ";

    /**
     * The row of one case, written again through the upsert's insert and conflict update with the values it holds:
     * nothing changes, and every check on an insert or an update of the projection runs. The row is locked without
     * waiting ({@code SKIP LOCKED}): a row another transaction holds is not probed. One row out, whether the row was
     * probed and whether it was written.
     */
    private static final String REWRITE_A_ROW = """
            WITH probed AS MATERIALIZED (
                SELECT case_id FROM %1$s WHERE case_id = ? FOR NO KEY UPDATE SKIP LOCKED),
            rewritten AS (
                INSERT INTO %1$s AS case_assignments
                       (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction, trace_id, updated_at)
                SELECT ca.case_id, ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision, ca.jurisdiction,
                       ca.trace_id, ca.updated_at
                  FROM %1$s ca JOIN probed p ON p.case_id = ca.case_id
                ON CONFLICT (case_id) DO UPDATE
                   SET assigned_worker_sub = EXCLUDED.assigned_worker_sub,
                       supervisor_sub      = EXCLUDED.supervisor_sub,
                       assignment_revision = EXCLUDED.assignment_revision,
                       jurisdiction        = EXCLUDED.jurisdiction,
                       trace_id            = EXCLUDED.trace_id,
                       updated_at          = EXCLUDED.updated_at
                RETURNING case_id)
            SELECT (SELECT case_id FROM probed) AS probed, EXISTS (SELECT 1 FROM rewritten) AS rewritten
            """;

    /**
     * How long the probe waits for any lock: a probe that would wait concludes nothing ({@link BatchIsolation}), so it
     * never stalls behind another transaction.
     */
    private static final String PROBE_LOCK_TIMEOUT = "SET LOCAL lock_timeout = '100ms'";

    /**
     * One statement per batch. {@code ON CONFLICT DO UPDATE} locks every conflicting row it is given, also
     * those its {@code WHERE} rejects, so entity rows are only touched while their case's row is held.
     *
     * <p>{@code batch} reads each case's stored row once, by primary key, with the statement's snapshot (a
     * join over a large batch may hash the whole table instead). That prior state classifies every row and
     * spares the upsert the rows no guard could write: those stored at a greater revision, or at the same
     * revision with the same pair. Revisions only grow, so such a row cannot have become writable since the
     * snapshot. Every other row goes through the guard, which judges the locked, newest version, so a
     * concurrent writer between the snapshot and the lock can only make a row's class off by one (advanced
     * for converged, skipped for unchanged), never its write.
     */
    private static final String UPSERT_PROJECTION = UPSERT_NAME + """
            WITH batch AS MATERIALIZED (
                SELECT u.case_id, u.worker, u.supervisor, u.revision, u.jurisdiction, u.trace_id, u.position,
                       prior.assignment_revision AS prior_revision,
                       prior.case_id IS NULL
                       OR prior.assignment_revision < u.revision
                       OR (prior.assignment_revision = u.revision
                           AND ((prior.assigned_worker_sub, prior.supervisor_sub) IS DISTINCT FROM (u.worker, u.supervisor)
                                OR (u.jurisdiction IS NOT NULL AND u.jurisdiction IS DISTINCT FROM prior.jurisdiction)))
                           AS may_change,
                       prior.assignment_revision = u.revision
                       AND (prior.assigned_worker_sub, prior.supervisor_sub) IS DISTINCT FROM (u.worker, u.supervisor)
                           AS other_pair
                  FROM unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[]) WITH ORDINALITY
                       AS u(case_id, worker, supervisor, revision, jurisdiction, trace_id, position)
                  LEFT JOIN LATERAL (SELECT ca.case_id, ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision,
                                            ca.jurisdiction
                                       FROM %1$s ca
                                      WHERE ca.case_id = u.case_id
                                     OFFSET 0) AS prior ON true),
            written AS (
                INSERT INTO %1$s AS case_assignments
                       (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction, trace_id, updated_at)
                SELECT b.case_id, b.worker, b.supervisor, b.revision, b.jurisdiction, b.trace_id, now()
                  FROM batch b
                 WHERE b.may_change
                 ORDER BY b.position
                ON CONFLICT (case_id) DO UPDATE
                   SET assigned_worker_sub = EXCLUDED.assigned_worker_sub,
                       supervisor_sub      = EXCLUDED.supervisor_sub,
                       assignment_revision = EXCLUDED.assignment_revision,
                       jurisdiction        = coalesce(EXCLUDED.jurisdiction, case_assignments.jurisdiction),
                       trace_id            = EXCLUDED.trace_id,
                       updated_at          = now()
                 WHERE %2$s
                RETURNING case_id, (xmax = 0) AS inserted)
            SELECT b.case_id, b.prior_revision, b.other_pair, w.inserted
              FROM batch b LEFT JOIN written w ON w.case_id = b.case_id
            """;

    /**
     * Entity rows converge to their case's projection row: they take its triple when their revision
     * is lower, or equal with another pair (a row born while its case was unknown is healed by
     * {@code case.created}; a backfill converges at an equal revision). Never while the case is unknown.
     * One such update per entity table, both in {@link #FOLLOW_PROJECTION}. Each row copied gets a new
     * {@code row_version} from the database (V15), so the tags clients hold of it become 412s.
     */
    private static final String FOLLOW_ONE_TABLE = """
            %1$s_followed AS (
                UPDATE %1$s AS e
                   SET assigned_worker_sub = ca.assigned_worker_sub,
                       supervisor_sub      = ca.supervisor_sub,
                       assignment_revision = ca.assignment_revision,
                       updated_at          = now()
                  FROM moved ca, %1$s AS prior
                 WHERE e.case_id = ca.case_id
                   AND prior.id = e.id
                   AND (e.assignment_revision < ca.assignment_revision
                        OR (e.assignment_revision = ca.assignment_revision
                            AND (e.assigned_worker_sub, e.supervisor_sub)
                                IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub)))
                RETURNING '%1$s'::text AS entity, prior.assignment_revision = ca.assignment_revision AS healed)""";

    /**
     * One round trip for both entity tables. Driven by the moved cases with the triple the upsert just
     * wrote for each (their projection rows stay locked until the transaction ends, so the projection
     * holds exactly that), each case's rows found through the {@code case_id} index: the cost follows
     * the batch, not the tables, and the projection is not read again.
     */
    private static final String FOLLOW_PROJECTION = """
            WITH moved AS MATERIALIZED (
                SELECT m.case_id, m.assigned_worker_sub, m.supervisor_sub, m.assignment_revision
                  FROM unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[])
                       AS m(case_id, assigned_worker_sub, supervisor_sub, assignment_revision)),
            """ + followBothTables();

    /**
     * Entity repair: the same follow, driven by the projection rows of the given cases as they are, each held
     * {@code FOR SHARE} in case-id order before any entity row is touched (the lock order of every writer), so
     * neither the projector nor an API write can move a case between the read of its triple and the copy.
     * Cases still unknown (a placeholder) are left alone, as by the follow.
     */
    private static final String REPAIR_FOLLOWERS = """
            WITH moved AS MATERIALIZED (
                SELECT ca.case_id, ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision
                  FROM case_assignments ca
                 WHERE ca.case_id = ANY (?::uuid[]) AND ca.assignment_revision >= 0
                 ORDER BY ca.case_id
                   FOR SHARE),
            """ + followBothTables();

    /** The follow of each case-scoped table ({@link LockOrder.CaseScopedTable}), and their counts. */
    private static String followBothTables() {
        return FOLLOW_ONE_TABLE.formatted(LockOrder.CaseScopedTable.PLACEMENTS.table()) + ",\n"
                + FOLLOW_ONE_TABLE.formatted(LockOrder.CaseScopedTable.KINSHIP_OPTIONS.table()) + "\n"
                + FollowedCounts.SQL;
    }

    /** Counts of both follows, per entity table (a holder class: a constant the two statements above both read). */
    private static final class FollowedCounts {
        static final String SQL = """
                SELECT entity, count(*) AS updated, count(*) FILTER (WHERE healed) AS healed
                  FROM (SELECT * FROM placements_followed UNION ALL SELECT * FROM kinship_options_followed) AS followed
                 GROUP BY entity
                """;
    }

    /**
     * History entries per statement at most: with subjects of at most 255 characters, a statement's arrays hold at
     * most a few megabytes of text (about 150 bytes an entry in practice).
     */
    static final int HISTORY_ROWS_PER_STATEMENT = 10_000;

    /**
     * The history: every revision given, in (case, revision) order so that two writers recording the same
     * entries never wait on each other in a cycle; the first payload of a revision stays. A statement of its
     * own after the upsert, so it never holds a history key while waiting for a projection row lock.
     */
    private static final String RECORD_HISTORY = """
            INSERT INTO case_assignment_history
                   (case_id, assignment_revision, assigned_worker_sub, supervisor_sub, jurisdiction, occurred_at, trace_id)
            SELECT h.case_id, h.revision, h.worker, h.supervisor, h.jurisdiction, h.occurred_at, h.trace_id
              FROM unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[]::timestamptz[], ?::text[])
                   WITH ORDINALITY AS h(case_id, worker, supervisor, revision, jurisdiction, occurred_at, trace_id, position)
             ORDER BY h.case_id, h.revision, h.position
            ON CONFLICT (case_id, assignment_revision) DO NOTHING
            """;

    /**
     * Seq scans are off while the upsert is planned, so its per-row lookup by key never becomes a scan of
     * the projection (statistics of an empty table), and on again for the entity rows, where a scan of a small
     * table can be the cheaper plan. Why and what it measured: decision 8
     * (docs/decisions/0008-batch-upsert-never-scans-the-projection.md).
     */
    private static final String LOOKUPS_BY_KEY = "SET LOCAL enable_seqscan = off";
    private static final String PLANNER_DEFAULTS = "SET LOCAL enable_seqscan = on";

    /**
     * Notified in the transaction of every batch that moved a row of the live projection, so PostgreSQL delivers it
     * at commit: readers waiting for a revision (the mutation API's {@code min_revision}) look again then.
     */
    public static final String MOVED_CHANNEL = "case_assignments_moved";

    /** The channel of the NOTIFY probe ({@link #checkNotifies}): no one listens to it, so it wakes no reader. */
    static final String NOTIFY_PROBE_CHANNEL = "case_assignments_notify_probe";

    /**
     * Moves the NOTIFY queue's tail past what every listener has read: PostgreSQL does so only when a notifier
     * fills pages, which none can while the queue is full, or when this function is called. Run by the writer
     * itself after a {@code 54000}, so recovery does not wait for a scrape of the projector's meter.
     */
    private static final String ADVANCE_NOTIFY_QUEUE = "SELECT pg_notification_queue_usage()";

    /** The live projection's table. */
    public static final String PROJECTION = "case_assignments";

    /**
     * How many cases' queues one transaction takes at most, by default ({@link CaseQueue}). Each is an entry of PostgreSQL's shared lock
     * table, which holds {@code max_locks_per_transaction × (max_connections + max_prepared_transactions)} entries for
     * the whole server (6,400 with the defaults 64 × (100 + 0)); three stream threads at this cap take 768 of them.
     * Decision 33 has the arithmetic.
     */
    public static final int DEFAULT_MAX_QUEUED_CASES = 256;

    private final JdbcTemplate jdbc;
    private final String table;
    private final boolean followEntities;
    private final int maxQueuedCases;

    /** The live projection's writer, queueing for at most {@link #DEFAULT_MAX_QUEUED_CASES} cases a batch. */
    public AssignmentWriter(JdbcTemplate jdbc) {
        this(jdbc, DEFAULT_MAX_QUEUED_CASES);
    }

    /** @param maxQueuedCases how many cases' queues one transaction takes at most ({@link CaseQueue}, decision 33) */
    public AssignmentWriter(JdbcTemplate jdbc, int maxQueuedCases) {
        this(jdbc, PROJECTION, true, maxQueuedCases);
    }

    private AssignmentWriter(JdbcTemplate jdbc, String table, boolean followEntities, int maxQueuedCases) {
        if (!table.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain table name: " + table);
        }
        if (maxQueuedCases < 1) {
            throw new IllegalArgumentException("maxQueuedCases must be at least 1, was " + maxQueuedCases);
        }
        this.jdbc = jdbc;
        this.table = table;
        this.followEntities = followEntities;
        this.maxQueuedCases = maxQueuedCases;
    }

    /**
     * The same guarded write into another table shaped like the projection (a rebuild's shadow). No entity
     * row follows it and it records no history: placements, kinship options and the history follow the live
     * projection only, so a rebuild never waits for the projector's open transactions.
     */
    public static AssignmentWriter intoShadow(JdbcTemplate jdbc, String table) {
        if (table.equals(PROJECTION)) {
            throw new IllegalArgumentException("a shadow must not be the live projection");
        }
        return new AssignmentWriter(jdbc, table, false, DEFAULT_MAX_QUEUED_CASES);
    }

    /**
     * Applies a reduced batch under its guard ({@link ReducedBatch}: one update per case, in case-id order, reduced
     * once, before), upserts the projection rows, then brings the entity rows of the moved cases along, and (on the
     * live projection) records every update of the batch in the cases' history, those the reduction set aside too. All
     * updates of one batch must share one guard. The result tells each case's {@link Outcome}.
     */
    public ApplyResult apply(ReducedBatch<?> batch) {
        return write(batch.updates(), batch.history());
    }

    /** As {@link #apply(ReducedBatch)}, for a list of updates: reduced first ({@link BatchReduction#reduce}). */
    public ApplyResult apply(List<AssignmentUpdate> updates) {
        return apply(updates, SeenRevision.of(updates));
    }

    /**
     * As {@link #apply(List)}, recording {@code seen} in the history instead of the updates alone: the updates
     * with when each occurred, and revisions set aside before this batch.
     */
    public ApplyResult apply(List<AssignmentUpdate> updates, List<SeenRevision> seen) {
        return write(BatchReduction.highestRevisionPerCase(updates), seen);
    }

    /** Writes {@code survivors}, one update per case in case-id order, and records {@code seen} in the history. */
    private ApplyResult write(List<AssignmentUpdate> survivors, List<SeenRevision> seen) {
        if (survivors.isEmpty()) {
            return ApplyResult.NONE;
        }
        Guard guard = survivors.get(0).guard();
        for (AssignmentUpdate update : survivors) {
            if (update.guard() != guard) {
                throw new IllegalArgumentException("one apply takes one guard; got " + guard + " and " + update.guard());
            }
        }
        Map<UUID, AssignmentUpdate> byCase = new HashMap<>();
        survivors.forEach(update -> byCase.put(update.caseId(), update));
        Map<UUID, Outcome> outcomes = new HashMap<>();
        List<UUID> inserted = new ArrayList<>();
        List<UUID> advanced = new ArrayList<>();
        // In a transaction, the live projection's upsert is tried with a short lock timeout first, and queues for
        // the cases it could not lock at once only then (CaseQueue, decision 33); both ride on the planner settings'
        // round trips. Outside one, a lock lasts one statement and there is nothing to queue with.
        boolean tried = Boolean.TRUE.equals(jdbc.execute((Connection connection) -> {
            boolean tryFirst = followEntities && !connection.getAutoCommit();
            try (Statement statement = connection.createStatement()) {
                statement.execute(tryFirst ? LOOKUPS_BY_KEY + CaseQueue.TRY : LOOKUPS_BY_KEY);
            }
            return tryFirst;
        }));
        try {
            upsert(guard, survivors, byCase, outcomes, inserted, advanced);
        } catch (RuntimeException failure) {
            if (!tried || !CaseQueue.timedOut(failure)) {
                throw failure;
            }
            outcomes.clear();
            inserted.clear();
            advanced.clear();
            CaseQueue.queueForContended(jdbc, survivors.stream().map(AssignmentUpdate::caseId).toList(), maxQueuedCases);
            upsert(guard, survivors, byCase, outcomes, inserted, advanced);
        }
        jdbc.execute(tried ? CaseQueue.TRIED + PLANNER_DEFAULTS : PLANNER_DEFAULTS);
        Map<UUID, Outcome> ordered = new LinkedHashMap<>();
        survivors.forEach(update -> ordered.put(update.caseId(), outcomes.get(update.caseId())));
        List<AssignmentUpdate> moved = new ArrayList<>(inserted.size() + advanced.size());
        inserted.forEach(caseId -> moved.add(byCase.get(caseId)));
        advanced.forEach(caseId -> moved.add(byCase.get(caseId)));
        FollowedRows followed = followEntities ? followProjection(moved) : FollowedRows.NONE;
        if (followEntities) {
            recordHistory(seen, !moved.isEmpty());
        }
        return new ApplyResult(survivors.size(), inserted, advanced, followed.placements(), followed.kinshipOptions(),
                followed.healed(), ordered);
    }

    /** The projection upsert of the reduced batch; fills in each case's outcome and the cases it moved. */
    private void upsert(Guard guard, List<AssignmentUpdate> survivors, Map<UUID, AssignmentUpdate> byCase,
                        Map<UUID, Outcome> outcomes, List<UUID> inserted, List<UUID> advanced) {
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(UPSERT_PROJECTION.formatted(table, guard.condition))) {
                bindUpdates(connection, ps, survivors, true);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        UUID caseId = rs.getObject("case_id", UUID.class);
                        long priorRevision = rs.getLong("prior_revision");
                        boolean existed = !rs.wasNull();
                        boolean otherPair = rs.getBoolean("other_pair");
                        boolean insertedNow = rs.getBoolean("inserted");
                        boolean written = !rs.wasNull();
                        boolean sameRevision = existed && priorRevision == byCase.get(caseId).revision();
                        Outcome outcome = !written ? (!sameRevision ? Outcome.SKIPPED_OLDER
                                        : otherPair && guard == Guard.STRICTLY_NEWER ? Outcome.CONFLICTING
                                        : Outcome.UNCHANGED)
                                : insertedNow ? Outcome.INSERTED
                                : sameRevision ? Outcome.CONVERGED : Outcome.ADVANCED;
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
    }

    /**
     * Runs the batch's statements with no rows, inside the caller's transaction: throws what PostgreSQL throws for
     * every row (no such table, no privilege to write it, a read-only database), and nothing when only some rows
     * could be refused ({@link BatchIsolation}).
     */
    public void checkWritable() {
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    UPSERT_PROJECTION.formatted(table, Guard.STRICTLY_NEWER.condition))) {
                bindUpdates(connection, ps, List.of(), true);
                ps.executeQuery().close();
            }
            if (followEntities) {
                try (PreparedStatement ps = connection.prepareStatement(FOLLOW_PROJECTION)) {
                    bindUpdates(connection, ps, List.of(), false);
                    ps.executeQuery().close();
                }
            }
            return null;
        });
    }

    /**
     * Rewrites the row of {@code committedCase}, a case this table took under today's checks, with its own values,
     * inside the caller's transaction, which must roll back: the upsert's insert of it, met by its conflict, then the
     * update of every column the upsert sets, each to what it holds. It meets every trigger, row-security policy and
     * check the upsert's projection rows meet, on values already taken (not the entity rows' follow-up writes). It
     * waits for no lock: the row is skipped when another transaction holds it, and any other lock waits at most
     * {@link #PROBE_LOCK_TIMEOUT}.
     *
     * @return false, having written nothing, when the row is gone or another transaction holds it
     * @throws RuntimeException what PostgreSQL threw, or an {@link IllegalStateException} when the row was silently
     *                          not written (a trigger returning no row)
     */
    public boolean checkTakesARow(UUID committedCase) {
        return jdbc.execute((Connection connection) -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(PROBE_LOCK_TIMEOUT);
            }
            try (PreparedStatement ps = connection.prepareStatement(REWRITE_A_ROW.formatted(table))) {
                ps.setObject(1, committedCase);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getObject("probed") == null) {
                        return false;
                    }
                    if (!rs.getBoolean("rewritten")) {
                        throw new IllegalStateException("the projection did not take its own row of case "
                                + rs.getObject("probed") + " rewritten with its own values");
                    }
                    return true;
                }
            }
        });
    }

    /**
     * Moves the NOTIFY queue's tail past what the listeners read ({@link #ADVANCE_NOTIFY_QUEUE}), then sends a
     * notification on {@link #NOTIFY_PROBE_CHANNEL} inside the caller's transaction, so that its commit throws what
     * PostgreSQL throws for every batch that moves a row: a full NOTIFY queue ({@code 54000}) refuses the commit
     * whatever the rows. No one listens to the channel, so no reader wakes. Nothing on a shadow, which notifies no one.
     */
    public void checkNotifies() {
        if (followEntities) {
            advanceNotifyQueue();
            jdbc.execute("NOTIFY " + NOTIFY_PROBE_CHANNEL);
        }
    }

    /** Moves the NOTIFY queue's tail past what every listener read ({@link #ADVANCE_NOTIFY_QUEUE}). */
    public void advanceNotifyQueue() {
        jdbc.queryForObject(ADVANCE_NOTIFY_QUEUE, Double.class);
    }

    /**
     * Brings the placement and kinship rows of the given cases to their projection rows' triples, under the
     * follow's guard (a copy never moves to an older revision) and the writers' lock order, inside the caller's
     * transaction. Only on the live projection's writer.
     *
     * @return the rows of each table it brought along
     */
    public FollowedRows repairFollowers(List<UUID> caseIds) {
        if (!followEntities) {
            throw new IllegalStateException("entity rows follow the live projection only, not " + table);
        }
        if (caseIds.isEmpty()) {
            return FollowedRows.NONE;
        }
        return jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(REPAIR_FOLLOWERS)) {
                ps.setArray(1, connection.createArrayOf("uuid", caseIds.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    return FollowedRows.read(rs);
                }
            }
        });
    }

    /**
     * Records the history, and announces a move of the live projection in the same round trip as its last
     * statement. At most {@link #HISTORY_ROWS_PER_STATEMENT} entries go in one statement: a backlog's batch records
     * every revision it read, and one statement of all of them would build arrays (and their text on the wire) of
     * that length. The entries are cut in the statement's own order (case id as PostgreSQL orders it, revision, then
     * as given), so each statement takes its keys after the previous one's, and the first payload given at a
     * revision is inserted first, whatever statement it lands in.
     */
    private void recordHistory(List<SeenRevision> seen, boolean announceMove) {
        if (seen.size() <= HISTORY_ROWS_PER_STATEMENT) {
            recordHistoryStatement(seen, announceMove);
            return;
        }
        List<SeenRevision> ordered = new ArrayList<>(seen);
        ordered.sort(Comparator.comparing((SeenRevision entry) -> entry.update().caseId(), CaseIds.POSTGRES_ORDER)
                .thenComparingLong(entry -> entry.update().revision())); // stable: as given at one revision
        for (int from = 0; from < ordered.size(); from += HISTORY_ROWS_PER_STATEMENT) {
            int to = Math.min(ordered.size(), from + HISTORY_ROWS_PER_STATEMENT);
            recordHistoryStatement(ordered.subList(from, to), announceMove && to == ordered.size());
        }
    }

    private void recordHistoryStatement(List<SeenRevision> seen, boolean announceMove) {
        int n = seen.size();
        String[] caseIds = new String[n];
        String[] workers = new String[n];
        String[] supervisors = new String[n];
        Long[] revisions = new Long[n];
        String[] jurisdictions = new String[n];
        String[] occurredAt = new String[n];
        String[] traceIds = new String[n];
        for (int i = 0; i < n; i++) {
            AssignmentUpdate u = seen.get(i).update();
            caseIds[i] = u.caseId().toString();
            workers[i] = u.assignedWorkerSub();
            supervisors[i] = u.supervisorSub();
            revisions[i] = u.revision();
            jurisdictions[i] = u.jurisdiction();
            Instant at = seen.get(i).occurredAt();
            occurredAt[i] = StorableTime.text(at);
            traceIds[i] = u.traceId();
        }
        jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(announceMove
                    ? RECORD_HISTORY + ";\nNOTIFY " + MOVED_CHANNEL : RECORD_HISTORY)) {
                ps.setArray(1, connection.createArrayOf("text", caseIds));
                ps.setArray(2, connection.createArrayOf("text", workers));
                ps.setArray(3, connection.createArrayOf("text", supervisors));
                ps.setArray(4, connection.createArrayOf("bigint", revisions));
                ps.setArray(5, connection.createArrayOf("text", jurisdictions));
                ps.setArray(6, connection.createArrayOf("text", occurredAt));
                ps.setArray(7, connection.createArrayOf("text", traceIds));
                ps.execute();
            }
            return null;
        });
    }

    private FollowedRows followProjection(List<AssignmentUpdate> moved) {
        if (moved.isEmpty()) {
            return FollowedRows.NONE;
        }
        return jdbc.execute((Connection connection) -> {
            try (PreparedStatement ps = connection.prepareStatement(FOLLOW_PROJECTION)) {
                bindUpdates(connection, ps, moved, false);
                try (ResultSet rs = ps.executeQuery()) {
                    return FollowedRows.read(rs);
                }
            }
        });
    }

    /**
     * Binds the triples as four arrays, and the jurisdictions and the events' trace ids as a fifth and sixth when the
     * statement takes them (the upsert). The arrays are typed ({@code String[]}, {@code Long[]}), which the driver sends in binary
     * instead of quoting every element into one array literal; a case id goes as its text, which the statement casts
     * ({@code ?::uuid[]}). The history's statement binds its arrays the same way.
     */
    private static void bindUpdates(Connection connection, PreparedStatement ps, List<AssignmentUpdate> updates,
                                    boolean withJurisdictions) throws SQLException {
        int n = updates.size();
        String[] caseIds = new String[n];
        String[] workers = new String[n];
        String[] supervisors = new String[n];
        Long[] revisions = new Long[n];
        String[] jurisdictions = new String[n];
        String[] traceIds = new String[n];
        for (int i = 0; i < n; i++) {
            AssignmentUpdate u = updates.get(i);
            caseIds[i] = u.caseId().toString();
            workers[i] = u.assignedWorkerSub();
            supervisors[i] = u.supervisorSub();
            revisions[i] = u.revision();
            jurisdictions[i] = u.jurisdiction();
            traceIds[i] = u.traceId();
        }
        ps.setArray(1, connection.createArrayOf("text", caseIds));
        ps.setArray(2, connection.createArrayOf("text", workers));
        ps.setArray(3, connection.createArrayOf("text", supervisors));
        ps.setArray(4, connection.createArrayOf("bigint", revisions));
        if (withJurisdictions) {
            ps.setArray(5, connection.createArrayOf("text", jurisdictions));
            ps.setArray(6, connection.createArrayOf("text", traceIds));
        }
    }
}
