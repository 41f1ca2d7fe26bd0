package org.caseassignments.store.rebuild;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The tables of a rebuild and the statements that create, swap and drop them. Names are fixed, so an operator
 * (and the next rebuild) finds them: the shadow being built, and the projection a swap replaced.
 *
 * <p>The swap renames inside one transaction holding {@code ACCESS EXCLUSIVE} on the projection. A statement
 * queued behind that lock looks its table up by name again once it gets the lock (PostgreSQL re-resolves a
 * relation name after waiting for it, and revalidates a prepared statement's plan the table's rename
 * invalidated), so it runs against the new table; a transaction that already holds the old one makes the swap
 * wait until it ends. Decision 19. One of the writers {@link org.caseassignments.store.LockOrder} names: it takes no
 * row lock. The backfill's {@code rebuild} command runs these operations.
 */
public final class ShadowTables {

    public static final String LIVE = "case_assignments";
    public static final String SHADOW = "case_assignments_rebuild";
    public static final String PREVIOUS = "case_assignments_previous";

    /** Constraints, defaults, the primary key and column comments; not grants, which {@link #COPY_GRANTS} adds. */
    private static final String CREATE_SHADOW = """
            CREATE TABLE case_assignments_rebuild (LIKE case_assignments INCLUDING ALL)
            """;

    private static final String GRANTS = """
            SELECT grantee, privilege_type
              FROM information_schema.role_table_grants
             WHERE table_schema = current_schema() AND table_name = 'case_assignments'
               AND grantee <> current_user
            """;

    private static final String COPY_GRANTS = "GRANT %s ON case_assignments_rebuild TO %s";

    private static final String EXISTS = "SELECT to_regclass(?) IS NOT NULL";

    /**
     * A case's jurisdiction is a property of the case, not of a revision: one a snapshot filled in for a case whose
     * events never carried it would be lost by a rebuild from the events alone, and the API refuses a case whose
     * jurisdiction is unknown. So a shadow row without one takes the live row's.
     */
    private static final String CARRY_JURISDICTIONS = """
            UPDATE case_assignments_rebuild s
               SET jurisdiction = l.jurisdiction
              FROM case_assignments l
             WHERE l.case_id = s.case_id AND s.jurisdiction IS NULL AND l.jurisdiction IS NOT NULL
            """;

    private static final List<String> SWAP = List.of(
            "ALTER TABLE case_assignments RENAME TO case_assignments_previous",
            "ALTER INDEX case_assignments_pkey RENAME TO case_assignments_previous_pkey",
            "ALTER TABLE case_assignments_rebuild RENAME TO case_assignments",
            "ALTER INDEX case_assignments_rebuild_pkey RENAME TO case_assignments_pkey");

    private static final List<String> SWAP_BACK = List.of(
            "ALTER TABLE case_assignments RENAME TO case_assignments_swapping",
            "ALTER INDEX case_assignments_pkey RENAME TO case_assignments_swapping_pkey",
            "ALTER TABLE case_assignments_previous RENAME TO case_assignments",
            "ALTER INDEX case_assignments_previous_pkey RENAME TO case_assignments_pkey",
            "ALTER TABLE case_assignments_swapping RENAME TO case_assignments_previous",
            "ALTER INDEX case_assignments_swapping_pkey RENAME TO case_assignments_previous_pkey");

    /**
     * Carries back into the previous table every row the rebuilt one holds at a higher revision, under the
     * projector's guard (strictly newer revision only, a known jurisdiction never cleared). The rebuilt table holds
     * nothing but events (those up to the swap's end, and those the projector applied to it since), so this is the
     * previous table with every event the projector has committed: none is lost, though an event it applied after
     * the swap to a row the rebuild already held at that revision wrote nothing there and left no trace but its
     * revision. A row the rebuild lowered is not touched (the previous one is higher). No clock is involved.
     */
    private static final String CARRY_FORWARD_INTO_PREVIOUS = """
            INSERT INTO case_assignments_previous AS p
                   (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, jurisdiction, updated_at)
            SELECT c.case_id, c.assigned_worker_sub, c.supervisor_sub, c.assignment_revision, c.jurisdiction, c.updated_at
              FROM case_assignments c
              LEFT JOIN case_assignments_previous q ON q.case_id = c.case_id
             WHERE q.case_id IS NULL OR q.assignment_revision < c.assignment_revision
            ON CONFLICT (case_id) DO UPDATE
               SET assigned_worker_sub = EXCLUDED.assigned_worker_sub,
                   supervisor_sub      = EXCLUDED.supervisor_sub,
                   assignment_revision = EXCLUDED.assignment_revision,
                   jurisdiction        = coalesce(EXCLUDED.jurisdiction, p.jurisdiction),
                   updated_at          = now()
             WHERE p.assignment_revision < EXCLUDED.assignment_revision
            """;

    /**
     * Where "changed since" starts: the oldest transaction still running now ({@code xmin} of the current snapshot),
     * as a 32-bit transaction id. A row whose {@code xmin} is not older was written by a transaction that had not
     * committed when this was read (or by a later one); every other row was committed before, and so is seen by
     * the comparison that follows. Compared by {@code age()}, which counts back from the current transaction id: a
     * frozen row's age is the largest there is, so it counts as old, as it is.
     */
    private static final String CHANGE_HORIZON =
            "SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text";

    /** Before the lock, every live row committed before the horizon: what the swap would drop or lower of them. */
    private static final String LOSSES_BEFORE = """
            SELECT count(*) FILTER (WHERE s.case_id IS NULL) AS dropped,
                   count(*) FILTER (WHERE s.assignment_revision < l.assignment_revision) AS lowered
              FROM case_assignments l
              LEFT JOIN case_assignments_rebuild s ON s.case_id = l.case_id
             WHERE age(l.xmin) > age(?::xid)
            """;

    /**
     * Under the lock, after the tail: the same for the live rows written since the horizon (a snapshot load may have
     * inserted or raised some), one scan of the projection and a lookup by key each. The shadow only gains rows and
     * revisions, so a row judged before the lock cannot have become worse on its side.
     */
    private static final String LOSSES_SINCE = """
            SELECT count(*) FILTER (WHERE s.case_id IS NULL) AS dropped,
                   count(*) FILTER (WHERE s.assignment_revision < l.assignment_revision) AS lowered
              FROM case_assignments l
              LEFT JOIN LATERAL (SELECT r.case_id, r.assignment_revision FROM case_assignments_rebuild r
                                  WHERE r.case_id = l.case_id OFFSET 0) s ON true
             WHERE age(l.xmin) <= age(?::xid)
            """;

    /** Under the lock: the carry-over again, for live rows written since the horizon. */
    private static final String CARRY_JURISDICTIONS_OF_LIVE_SINCE = """
            UPDATE case_assignments_rebuild s
               SET jurisdiction = l.jurisdiction
              FROM (SELECT case_id, jurisdiction FROM case_assignments
                     WHERE age(xmin) <= age(?::xid) AND jurisdiction IS NOT NULL OFFSET 0) l
             WHERE s.case_id = l.case_id AND s.jurisdiction IS NULL
            """;

    /** Under the lock: the carry-over again, for shadow rows written since the horizon (the tail's new cases). */
    private static final String CARRY_JURISDICTIONS_TO_SHADOW_SINCE = """
            UPDATE case_assignments_rebuild s
               SET jurisdiction = (SELECT l.jurisdiction FROM case_assignments l WHERE l.case_id = s.case_id)
             WHERE age(s.xmin) <= age(?::xid) AND s.jurisdiction IS NULL
               AND EXISTS (SELECT 1 FROM case_assignments l WHERE l.case_id = s.case_id AND l.jurisdiction IS NOT NULL)
            """;

    /** Index lookups, not a hash of a whole table, for the few rows changed since the horizon. */
    private static final String LOOKUPS_BY_KEY = "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off";

    /** What a swap would do to the live rows: drop those in no event, lower those the events put lower. */
    public record Losses(long dropped, long lowered) {

        public Losses plus(Losses other) {
            return new Losses(dropped + other.dropped, lowered + other.lowered);
        }
    }

    private static final String NOTHING_PUT_BACK = "nothing was put back";

    private static final String MARKER = "Replaced by a rebuild at ";

    /** What every swap's marker starts with, this version's and the earlier one's ("Replaced by a rebuild; …"). */
    private static final String REPLACED = "Replaced by a rebuild";

    private static final String UNDONE = "A rebuild an undo took out at ";

    private static final String NOW = "SELECT clock_timestamp()::text";

    private static final String LIVE_COMMENT = "SELECT obj_description('case_assignments'::regclass, 'pg_class')";

    private static final String PREVIOUS_COMMENT =
            "SELECT obj_description('case_assignments_previous'::regclass, 'pg_class')";

    /** Who holds a lock on the projection now: what an attempt that was not granted in time waited behind. */
    private static final String HOLDERS = """
            SELECT string_agg(DISTINCT a.backend_type || ' ' || l.mode
                              || coalesce(' (' || left(a.query, 60) || ')', ''), ', ')
              FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.relation = 'case_assignments'::regclass AND l.granted AND l.pid <> pg_backend_pid()
            """;

    private static final String OID = "SELECT to_regclass(?)::oid::bigint";

    /** One implicit transaction: the drop waits at most {@code %1$d} ms for the table's lock. */
    private static final String DROP_WAITING_AT_MOST = "SET LOCAL lock_timeout = '%dms'; DROP TABLE IF EXISTS %s";

    /**
     * How much longer than the hold's bound the database waits for a client that stops answering under the lock (a
     * frozen process, a paused VM, a network cut) before it ends the session, which rolls back and lets go.
     */
    public static final Duration FROZEN_CLIENT_MARGIN = Duration.ofSeconds(1);

    /**
     * Before asking for the lock: a session idle inside the transaction (its client has stopped sending) is ended by
     * the server, and the server's keepalives find a client cut off within about three seconds; {@code %1$d} is the
     * hold's bound plus the margin, in milliseconds, and {@code %2$d} the idle limit, a millisecond below it
     * (PostgreSQL 17 ignores an idle limit not below the transaction's).
     */
    private static final String FROZEN_CLIENT_BOUNDS = """
            SET LOCAL idle_in_transaction_session_timeout = %2$d; SET LOCAL tcp_user_timeout = %1$d;
            SET LOCAL tcp_keepalives_idle = 1; SET LOCAL tcp_keepalives_interval = 1; SET LOCAL tcp_keepalives_count = 2
            """;

    /**
     * PostgreSQL 17 and later, before asking for the lock: no limit on the whole transaction while the lock is awaited
     * (the wait has its own), which also stops a timer a role's or database's {@code transaction_timeout} started with
     * the transaction: setting another value does not restart a running one.
     */
    private static final String NO_TRANSACTION_TIMEOUT = "SET LOCAL transaction_timeout = 0";

    /** PostgreSQL 17 and later, once the lock is granted: the whole transaction ended at the bound, counted from here. */
    private static final String TRANSACTION_TIMEOUT = "SET LOCAL transaction_timeout = %d";

    private static final String SERVER_VERSION = "SELECT current_setting('server_version_num')::int";

    private final JdbcTemplate jdbc;
    /** The shadow this run created ({@code pg_class} oid): the only table its swap renames into the projection. */
    private Long shadowOid;
    /** The projection when this run began ({@code pg_class} oid). */
    private Long liveOid;
    /** An undo's: the previous table it puts back ({@code pg_class} oid). */
    private Long restoringOid;

    public ShadowTables(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Before the run changes anything: which table is the projection, and which one an undo would put back; no shadow
     * of this run yet (a command run again in one process starts afresh).
     */
    public void noteTables() {
        shadowOid = null;
        liveOid = oid(LIVE);
        restoringOid = oid(PREVIOUS);
    }

    private Long oid(String table) {
        return jdbc.queryForObject(OID, Long.class, table);
    }

    /**
     * Which table is the projection now, by {@code pg_class} oid, read on a session of its own: after a transaction
     * failed, the only way to know whether its commit reached the database before the session ended.
     */
    public Projection projection() {
        return projection(oid(LIVE));
    }

    /**
     * After this run's swap or undo lost its session: {@link #projection()}, where a table neither the one this run
     * began with nor one it made stops the run ({@link Changed}, saying {@code consequence}): another run or an
     * operator's SQL put it there, and a retry would swap it away.
     */
    public Projection projectionOrChanged(String consequence) {
        Long live = oid(LIVE);
        Projection now = projection(live);
        if (now == Projection.OTHER) {
            throw new Changed(LIVE, liveOid, live, consequence);
        }
        return now;
    }

    private Projection projection(Long live) {
        if (live != null && live.equals(shadowOid)) {
            return Projection.SWAPPED;
        }
        if (live != null && live.equals(restoringOid)) {
            return Projection.UNDONE;
        }
        // Nothing noted: the run failed before it could change anything.
        return liveOid == null || liveOid.equals(live) ? Projection.UNCHANGED : Projection.OTHER;
    }

    /** What {@link #projection()} finds, with what a run prints of it. */
    public enum Projection {
        UNCHANGED("the live projection is unchanged"),
        SWAPPED("the swap committed: the rebuilt table is the projection, the replaced one kept as " + PREVIOUS),
        UNDONE("the undo committed: the previous projection is back"),
        OTHER("the projection is neither the table this run began with nor one it built: another run changed it");

        private final String said;

        Projection(String said) {
            this.said = said;
        }

        public String said() {
            return said;
        }
    }

    public boolean exists(String table) {
        return Boolean.TRUE.equals(jdbc.queryForObject(EXISTS, Boolean.class, table));
    }

    /**
     * Any older shadow dropped (its lock awaited at most {@code lockTimeout}), then a new, empty one shaped like the
     * projection, with its grants and comment.
     */
    public void createShadow(Duration lockTimeout) {
        jdbc.execute(DROP_WAITING_AT_MOST.formatted(lockTimeout.toMillis(), SHADOW));
        jdbc.execute(CREATE_SHADOW);
        for (Map<String, Object> grant : jdbc.queryForList(GRANTS)) {
            jdbc.execute(COPY_GRANTS.formatted(grant.get("privilege_type"),
                    quoteIdentifier((String) grant.get("grantee"))));
        }
        comment(SHADOW, jdbc.queryForObject(LIVE_COMMENT, String.class));
        shadowOid = oid(SHADOW);
    }

    public int carryJurisdictions() {
        return jdbc.update(CARRY_JURISDICTIONS);
    }

    /**
     * Inside the swap's transaction: waits at most {@code timeout} for the projection's {@code ACCESS EXCLUSIVE}
     * lock, throwing when it is not granted in time (SQLSTATE 55P03), so the queue behind it never waits longer.
     */
    public void lockLive(Duration timeout, Duration hold) {
        lock("case_assignments", timeout, hold);
    }

    /**
     * The lock of {@code tables} (waiting at most {@code timeout}) in a transaction the server itself ends if its
     * client stops answering: {@code hold} plus {@link #FROZEN_CLIENT_MARGIN} after the grant at most (idle in the
     * transaction, or in all from the grant on PostgreSQL 17 and later), so a frozen or cut-off client cannot keep
     * the projection locked. Decision 46.
     */
    private void lock(String tables, Duration timeout, Duration hold) {
        long bound = hold.plus(FROZEN_CLIENT_MARGIN).toMillis();
        jdbc.execute("SET LOCAL lock_timeout = '" + timeout.toMillis() + "ms'");
        jdbc.execute(FROZEN_CLIENT_BOUNDS.formatted(bound, bound - 1));
        boolean transactionTimeout = jdbc.queryForObject(SERVER_VERSION, Integer.class) >= 170_000;
        if (transactionTimeout) {
            jdbc.execute(NO_TRANSACTION_TIMEOUT);
        }
        jdbc.execute("LOCK TABLE " + tables + " IN ACCESS EXCLUSIVE MODE");
        if (transactionTimeout) {
            jdbc.execute(TRANSACTION_TIMEOUT.formatted(bound));
        }
    }

    /** The horizon of {@link #CHANGE_HORIZON}: read before the end offsets the comparison's shadow is drained to. */
    public String changeHorizon() {
        return jdbc.queryForObject(CHANGE_HORIZON, String.class);
    }

    /** Outside the lock: what the swap would drop or lower of the live rows committed before {@code horizon}. */
    public Losses lossesBefore(String horizon) {
        return jdbc.queryForObject(LOSSES_BEFORE, ShadowTables::losses, horizon);
    }

    /**
     * Inside the swap's transaction, holding the lock: throws {@link Deadline.Passed} once {@code deadline} has
     * passed, and otherwise makes the statements that follow cancelled at it (SQLSTATE 57014), so none of them can
     * stretch the lock's hold. {@code statement_timeout} bounds each statement alone, so it is set again before each.
     */
    public void boundStatements(Deadline deadline) {
        deadline.check();
        jdbc.execute("SET LOCAL statement_timeout = '" + deadline.statementTimeoutMillis() + "ms'");
    }

    /**
     * Inside the swap's transaction, holding the lock: the jurisdictions carried over again and what the swap would
     * drop or lower, both for the rows written since {@code horizon} (the rest was done before the lock); each
     * statement cancelled at {@code deadline}.
     */
    public Losses checkUnderLock(Deadline deadline, String horizon) {
        boundStatements(deadline);
        jdbc.execute(LOOKUPS_BY_KEY);
        jdbc.update(CARRY_JURISDICTIONS_OF_LIVE_SINCE, horizon);
        boundStatements(deadline);
        jdbc.update(CARRY_JURISDICTIONS_TO_SHADOW_SINCE, horizon);
        boundStatements(deadline);
        return jdbc.queryForObject(LOSSES_SINCE, ShadowTables::losses, horizon);
    }

    private static Losses losses(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new Losses(rs.getLong("dropped"), rs.getLong("lowered"));
    }

    /**
     * Inside the swap's transaction, holding the lock: the shadow becomes the projection, the projection the
     * previous, marked as a rebuild's (what an undo checks); first, both still the tables this run noted; each
     * statement cancelled at {@code deadline} (a rename waits for any lock on the shadow).
     */
    public void swap(Deadline deadline) {
        boundStatements(deadline);
        requireAsNoted("nothing was swapped", LIVE, SHADOW);
        for (String rename : SWAP) {
            boundStatements(deadline);
            jdbc.execute(rename);
        }
        boundStatements(deadline);
        comment(PREVIOUS, MARKER + jdbc.queryForObject(NOW, String.class));
    }

    /**
     * Inside a transaction: both tables locked and checked to be the ones this run noted, the rows moved since the swap
     * carried back, then the two exchanged; from the grant on, bounded as the swap is: every statement cancelled at
     * {@code within} after it ({@link Deadline.Passed} or SQLSTATE 57014: roll back, carry again outside the lock,
     * try again), and a client that stops answering ended by the server.
     */
    public void swapBack(Duration timeout, Duration within) {
        lock("case_assignments, case_assignments_previous", timeout, within);
        Deadline deadline = Deadline.after(within);
        boundStatements(deadline);
        requireAsNoted(NOTHING_PUT_BACK, LIVE, PREVIOUS);
        boundStatements(deadline);
        jdbc.update(CARRY_FORWARD_INTO_PREVIOUS);
        boundStatements(deadline);
        String liveComment = jdbc.queryForObject(LIVE_COMMENT, String.class);
        for (String rename : SWAP_BACK) {
            boundStatements(deadline);
            jdbc.execute(rename);
        }
        boundStatements(deadline);
        comment(LIVE, liveComment);
        comment(PREVIOUS, UNDONE + jdbc.queryForObject(NOW, String.class));
    }

    /**
     * Whether the previous table is one a swap replaced, which an undo can put back. One an undo took out (the
     * rebuilt table) is not: it misses whatever the projection took since, and a row the restored table kept higher
     * records no event it ignored, so no carry could make it whole. A new rebuild is the redo.
     */
    public String whyNotUndoable() {
        String marker = jdbc.queryForObject(PREVIOUS_COMMENT, String.class);
        if (marker != null && marker.startsWith(UNDONE)) {
            return PREVIOUS + " is the rebuilt projection an undo took out (" + marker.substring(UNDONE.length())
                    + "); it lacks what the projection took since, so it is not put back: drop it with --drop-previous "
                    + "and run a new rebuild";
        }
        if (marker == null || !marker.startsWith(REPLACED)) {
            return PREVIOUS + " does not say a rebuild replaced it (its comment is not the rebuild's): put it back by "
                    + "hand if it is meant to be";
        }
        return null;
    }

    /**
     * Inside a transaction of its own, once before {@link #swapBack} without the lock, so the locked pass finds little
     * left to write; it commits only into the tables this run noted (the write holds both, so neither can be renamed
     * before the check).
     */
    public int carryForwardIntoPrevious() {
        int carried = jdbc.update(CARRY_FORWARD_INTO_PREVIOUS);
        requireAsNoted(NOTHING_PUT_BACK, LIVE, PREVIOUS);
        return carried;
    }

    private void comment(String table, String comment) {
        if (comment != null) {
            jdbc.execute("COMMENT ON TABLE " + table + " IS '" + comment.replace("'", "''") + "'");
        }
    }

    /** The lock holders of the projection, for the message of an attempt that gave up; "none" once they are gone. */
    public String lockHolders() {
        String holders = jdbc.queryForObject(HOLDERS, String.class);
        return holders == null ? "none any more" : holders;
    }

    public void dropPrevious() {
        jdbc.execute("DROP TABLE IF EXISTS " + PREVIOUS);
    }

    /**
     * Throws {@link Changed} unless each of {@code tables} ({@link #LIVE}, {@link #SHADOW}, {@link #PREVIOUS}) is still
     * the table this run noted under that name: the projection it began with, the shadow it created, the previous
     * table it found. Called under the lock the swap or undo holds on them, or inside a transaction that has written
     * to them (and so holds a lock on the tables it wrote, which no one can rename or drop meanwhile): a run that lost
     * its claim, or whose tables an operator's SQL changed, never commits into or swaps a table it did not check.
     */
    public void requireAsNoted(String consequence, String... tables) {
        for (String table : tables) {
            Long noted = switch (table) {
                case LIVE -> liveOid;
                case SHADOW -> shadowOid;
                default -> restoringOid;
            };
            Long now = oid(table);
            if (noted == null || !noted.equals(now)) {
                throw new Changed(table, noted, now, consequence);
            }
        }
    }

    /** A table a run was about to write or swap is not the one it noted: another run or an operator's SQL changed it. */
    public static final class Changed extends IllegalStateException {
        Changed(String table, Long noted, Long now, String consequence) {
            super(table + " is not the table this run " + switch (table) {
                case LIVE -> "began with";
                case SHADOW -> "built";
                default -> "found kept";
            } + " (" + (now == null ? "it is gone" : "another took its place: oid " + now
                    + (noted == null ? "" : ", not " + noted)) + "; another run or an operator's SQL changed it); "
                    + consequence);
        }
    }

    /**
     * Inside a transaction: the shadow this run created dropped, waiting at most {@code lockTimeout} for its lock; a
     * table another run put in its place is left alone.
     */
    public void dropShadow(Duration lockTimeout) {
        if (shadowOid == null) {
            return;
        }
        jdbc.execute("SET LOCAL lock_timeout = '" + lockTimeout.toMillis() + "ms'");
        if (exists(SHADOW)) {
            jdbc.execute("LOCK TABLE " + SHADOW + " IN ACCESS EXCLUSIVE MODE");
            if (shadowOid.equals(oid(SHADOW))) {
                jdbc.execute("DROP TABLE " + SHADOW);
            }
        }
    }

    private static String quoteIdentifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
