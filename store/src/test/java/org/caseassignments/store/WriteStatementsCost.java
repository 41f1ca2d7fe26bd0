package org.caseassignments.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.DrainWorkload;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Opt-in benchmark (not a test): where the projector's PostgreSQL CPU goes per event, per statement kind of
 * {@link AssignmentWriter} (upsert, follow, history, the rest: SET LOCAL round trips, BEGIN/COMMIT), and what
 * cheaper forms of the history statement cost. The data is {@code ProjectorPerformance}'s shape (100,000 cases, 8
 * revisions each round-robin, 100,000 duplicate deliveries, 50,000 swapped pairs; 50,000 placements and 25,000
 * kinship options seeded), split into 3 partitions by case and cut into batches of N events per partition, each
 * reduced by {@link BatchReduction.NewestPerCase} and written by {@link BatchWriter} as the projector does, on one
 * connection. Each statement's cost is the backend's CPU time across its execution ({@code /proc/<pid>/schedstat},
 * nanoseconds, the same clock {@code /proc/<pid>/stat}'s utime+stime is read from; both are reported).
 *
 * <p>Variants ({@code -Dvariants=a,b,...}) change the history statement only: the writer's history statements are
 * held back (not executed) and replayed, concatenated in the writer's order, just before the commit, in the same
 * transaction, cut into chunks of the variant's size:
 * <ul>
 *   <li>{@code current}: the writer's statements as they are, executed where the writer runs them;</li>
 *   <li>{@code replay}: the current statement replayed at commit, chunks of 10,000 (a control of the replay);</li>
 *   <li>{@code unordered}: no SQL {@code ORDER BY} (Java already sorted), still {@code WITH ORDINALITY};</li>
 *   <li>{@code unordered-plain}: no {@code ORDER BY}, no {@code WITH ORDINALITY};</li>
 *   <li>{@code tstz}: {@code occurred_at} sent as a {@code timestamptz[]} (no {@code text[]} then cast);</li>
 *   <li>{@code lean}: unordered-plain and tstz;</li>
 *   <li>any of them with {@code @N}: chunks of N entries, e.g. {@code lean@50000}, {@code replay@100000};</li>
 *   <li>any of them with {@code +noprior}: a probe of what the follow's self-join for the prior revision costs (the
 *       follow without it, {@code healed} always false: not a candidate, it loses the healed counts).</li>
 * </ul>
 *
 * <p>Run: {@code java -cp ... org.caseassignments.store.WriteStatementsCost 35000 111000} with system properties
 * {@code variants} (current), {@code repeats} (3), {@code cases} (100000), {@code seed} (1), {@code explain}
 * (false: EXPLAIN (ANALYZE, BUFFERS) of each kind's statement of the middle batch, printed, in a transaction rolled back),
 * {@code fillfactor} (unset: the tables' own; N: the projection's and the entity tables' fillfactor set to N before
 * the seed rows, in the drain mode).
 */
public final class WriteStatementsCost {

    enum Kind { UPSERT, FOLLOW, HISTORY, REST }

    record Ev(UUID caseId, String worker, String supervisor, long revision, Instant occurredAt) {
    }

    public static void main(String[] args) throws Throwable {
        if (System.getProperty("mode", "drain").equals("ab")) {
            historyAb(args);
            return;
        }
        int[] batchSizes = args.length == 0 ? new int[] {35_000, 111_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        List<String> variants = List.of(System.getProperty("variants", "current").split(","));
        int repeats = Integer.getInteger("repeats", 3);
        int cases = Integer.getInteger("cases", 100_000);
        Random random = new Random(Long.getLong("seed", 1));
        List<UUID> caseIds = DrainWorkload.caseIds(random, cases);
        List<Ev> events = deliveries(random, caseIds, 8, cases, cases / 2);
        long seedOfRows = random.nextLong();
        System.out.printf("data: %,d events over %,d cases%n", events.size(), cases);
        System.out.printf("%-8s %-20s %4s %8s %8s %8s %8s %8s %9s  %s%n", "batch", "variant", "rep", "upsert", "follow",
                "history", "rest", "total", "stat tot", "(µs of PostgreSQL backend CPU per event; batches, statements)");
        Map<String, List<double[]>> results = new TreeMap<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (int batchSize : batchSizes) {
                for (String variant : variants) {
                    double[] r = drain(events, caseIds, seedOfRows, batchSize, variant, repeat);
                    results.computeIfAbsent(String.format("%07d %s", batchSize, variant), k -> new ArrayList<>()).add(r);
                }
            }
        }
        System.out.printf("%nmedians of %d repeats (min-max of total)%n", repeats);
        results.forEach((key, rows) -> {
            double[] median = new double[6];
            for (int i = 0; i < 6; i++) {
                int column = i;
                double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
                median[i] = values[values.length / 2];
            }
            double min = rows.stream().mapToDouble(r -> r[4]).min().orElse(0);
            double max = rows.stream().mapToDouble(r -> r[4]).max().orElse(0);
            String[] parts = key.split(" ");
            System.out.printf("%-8d %-20s %8.2f %8.2f %8.2f %8.2f %8.2f %9.2f  (%.2f-%.2f)%n", Integer.parseInt(parts[0]),
                    parts[1], median[0], median[1], median[2], median[3], median[4], median[5], min, max);
        });
        System.exit(0);
    }

    /**
     * {@code -Dmode=ab}: one batch (the middle one, on a database holding the batches before it) written by
     * {@link BatchWriter#rollingBack()} in each variant, every write rolled back, the variants taking turns for
     * {@code rounds} (7) rounds: a paired comparison, each variant meeting the same load and the same table. Reports
     * the median backend CPU per event of the batch, per statement kind.
     */
    static void historyAb(String[] args) throws Throwable {
        int[] batchSizes = args.length == 0 ? new int[] {35_000, 111_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        List<String> variants = List.of(System.getProperty("variants",
                "current,unordered,unordered-plain,tstz,lean,current@50000,lean@50000,lean@100000").split(","));
        int rounds = Integer.getInteger("rounds", 7);
        int cases = Integer.getInteger("cases", 100_000);
        Random random = new Random(Long.getLong("seed", 1));
        List<UUID> caseIds = DrainWorkload.caseIds(random, cases);
        List<Ev> events = deliveries(random, caseIds, 8, cases, cases / 2);
        long seedOfRows = random.nextLong();
        for (int batchSize : batchSizes) {
            TestDatabase db = TestDatabase.migrated();
            DrainWorkload.seedEntityRows(db, caseIds, new Random(seedOfRows));
            List<ReducedBatch<Ev>> batches = batches(events, batchSize);
            Connection raw = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
            int pid;
            try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                pid = rs.getInt(1);
            }
            SingleConnectionDataSource ds = new SingleConnectionDataSource(raw, true);
            BatchWriter batchWriter = BatchWriter.once(new TransactionTemplate(new DataSourceTransactionManager(ds)),
                    new AssignmentWriter(new JdbcTemplate(ds)), new WriteMetrics(new SimpleMeterRegistry(), "cost"));
            int middle = batches.size() / 2;
            for (int b = 0; b < middle; b++) {
                batchWriter.write(batches.get(b));
            }
            ReducedBatch<Ev> batch = batches.get(middle);
            Map<String, List<long[]>> nanos = new TreeMap<>();
            for (int round = 0; round < rounds; round++) {
                for (int v = 0; v < variants.size(); v++) {
                    String variant = variants.get((v + round) % variants.size());
                    Measured measured = new Measured(raw, pid, variant);
                    measured.replayOnRollback = true;
                    SingleConnectionDataSource measuredDs = new SingleConnectionDataSource(measured.connection(), true);
                    BatchWriter.once(new TransactionTemplate(new DataSourceTransactionManager(measuredDs)),
                                    new AssignmentWriter(new JdbcTemplate(measuredDs)),
                                    new WriteMetrics(new SimpleMeterRegistry(), "cost"))
                            .rollingBack().write(batch);
                    long[] byKind = new long[Kind.values().length];
                    for (Kind kind : Kind.values()) {
                        byKind[kind.ordinal()] = measured.nanos.get(kind);
                    }
                    nanos.computeIfAbsent(variant, k -> new ArrayList<>()).add(byKind);
                }
            }
            raw.close();
            System.out.printf("%nbatch of %,d events (%,d kept, %,d history entries; the %d. of %d), %d rounds, each rolled "
                            + "back; medians, µs of backend CPU per event of the batch%n", batch.events(), batch.kept().size(),
                    batch.history().size(), middle + 1, batches.size(), rounds);
            System.out.printf("%-20s %8s %8s %8s %8s %8s  %s%n", "variant", "upsert", "follow", "history", "rest", "total",
                    "history min-max");
            for (String variant : variants) {
                List<long[]> rows = nanos.get(variant);
                double[] median = new double[5];
                for (int k = 0; k < 5; k++) {
                    int kind = k;
                    long[] sorted = rows.stream().mapToLong(r -> kind < 4 ? r[kind] : Arrays.stream(r).sum()).sorted().toArray();
                    median[k] = sorted[sorted.length / 2] / 1e3 / batch.events();
                }
                long[] history = rows.stream().mapToLong(r -> r[Kind.HISTORY.ordinal()]).sorted().toArray();
                System.out.printf("%-20s %8.3f %8.3f %8.3f %8.3f %8.3f  %.3f-%.3f%n", variant, median[0], median[1], median[2],
                        median[3], median[4], history[0] / 1e3 / batch.events(),
                        history[history.length - 1] / 1e3 / batch.events());
            }
        }
        System.exit(0);
    }

    /** The drain benchmark's deliveries ({@link DrainWorkload}), without the Avro records. */
    static List<Ev> deliveries(Random random, List<UUID> caseIds, int changes, int extra, int swaps) {
        Instant start = Instant.parse("2026-12-01T00:00:00Z");
        return DrainWorkload.deliveries(random, caseIds, changes, extra, swaps,
                (caseId, revision, worker, supervisor, position) ->
                        new Ev(caseId, worker, supervisor, revision, start.plusMillis(position)));
    }

    /** One drain of all events on a fresh database; returns µs per event: upsert, follow, history, rest, total, stat total. */
    static double[] drain(List<Ev> events, List<UUID> caseIds, long seedOfRows, int batchSize, String variant, int repeat)
            throws Exception {
        TestDatabase db = TestDatabase.migrated();
        String fillfactor = System.getProperty("fillfactor");
        if (fillfactor != null) {
            for (String table : List.of("case_assignments", "placements", "kinship_options")) {
                db.jdbc().execute("ALTER TABLE " + table + " SET (fillfactor = " + Integer.parseInt(fillfactor) + ")");
            }
        }
        DrainWorkload.seedEntityRows(db, caseIds, new Random(seedOfRows));
        List<ReducedBatch<Ev>> batches = batches(events, batchSize);
        Connection raw = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
        int pid;
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            pid = rs.getInt(1);
        }
        Measured measured = new Measured(raw, pid, variant);
        SingleConnectionDataSource ds = new SingleConnectionDataSource(measured.connection(), true);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(ds));
        AssignmentWriter writer = new AssignmentWriter(new JdbcTemplate(ds));
        BatchWriter batchWriter = BatchWriter.once(transaction, writer, new WriteMetrics(new SimpleMeterRegistry(), "cost"));
        long statBefore = statNanos(pid);
        measured.reset();
        for (int b = 0; b < batches.size(); b++) {
            if (Boolean.getBoolean("explain") && b == batches.size() / 2) {
                explain(raw, batches.get(b));
            }
            batchWriter.write(batches.get(b));
        }
        long statTotal = statNanos(pid) - statBefore;
        double n = events.size();
        double[] us = new double[6];
        long total = 0;
        for (Kind kind : Kind.values()) {
            us[kind.ordinal()] = measured.nanos.get(kind) / 1e3 / n;
            total += measured.nanos.get(kind);
        }
        us[4] = total / 1e3 / n;
        us[5] = statTotal / 1e3 / n;
        verify(new JdbcTemplate(ds), caseIds.size());
        System.out.printf("%-8d %-20s %4d %8.2f %8.2f %8.2f %8.2f %8.2f %9.2f  %d batches, %s%n", batchSize, variant,
                repeat, us[0], us[1], us[2], us[3], us[4], us[5], batches.size(), measured.counts);
        raw.close();
        return us;
    }

    /** The events split into 3 partitions by case, cut into batches of N events each, the partitions taking turns. */
    static List<ReducedBatch<Ev>> batches(List<Ev> events, int batchSize) {
        int partitions = 3;
        List<List<Ev>> byPartition = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            byPartition.add(new ArrayList<>());
        }
        events.forEach(e -> byPartition.get(Math.floorMod(e.caseId().hashCode(), partitions)).add(e));
        List<ReducedBatch<Ev>> batches = new ArrayList<>();
        List<List<ReducedBatch<Ev>>> perPartition = new ArrayList<>();
        for (List<Ev> partition : byPartition) {
            List<ReducedBatch<Ev>> own = new ArrayList<>();
            BatchReduction.NewestPerCase<Ev> table = new BatchReduction.NewestPerCase<>();
            int count = 0;
            for (Ev e : partition) {
                table.add(e, AssignmentUpdate.changed(e.caseId(), e.worker(), e.supervisor(), e.revision()), e.occurredAt());
                if (++count == batchSize) {
                    own.add(table.batch());
                    table.clear();
                    count = 0;
                }
            }
            if (!table.isEmpty()) {
                own.add(table.batch());
            }
            perPartition.add(own);
        }
        for (int i = 0; perPartition.stream().anyMatch(own -> !own.isEmpty()); i++) {
            for (List<ReducedBatch<Ev>> own : perPartition) {
                if (!own.isEmpty()) {
                    batches.add(own.remove(0));
                }
            }
        }
        return batches;
    }

    /** The same outcome whatever the variant: every case at revision 8, every (case, revision) in the history once. */
    private static void verify(JdbcTemplate jdbc, int cases) {
        Map<String, Object> row = jdbc.queryForMap("""
                SELECT (SELECT count(*) FROM case_assignments WHERE assignment_revision = 8) AS at8,
                       (SELECT count(*) FROM case_assignment_history) AS history,
                       (SELECT count(*) FROM placements WHERE assignment_revision = 8) AS placements,
                       (SELECT count(*) FROM kinship_options WHERE assignment_revision = 8) AS kinship,
                       (SELECT md5(string_agg(case_id::text || assignment_revision || assigned_worker_sub
                                              || supervisor_sub || occurred_at, ',' ORDER BY case_id, assignment_revision))
                          FROM case_assignment_history) AS digest""");
        System.out.printf("         verify: %s%n", row);
        if (((Number) row.get("at8")).intValue() != cases || ((Number) row.get("history")).intValue() != cases * 9) {
            throw new IllegalStateException("unexpected rows: " + row);
        }
    }

    /**
     * EXPLAIN (ANALYZE, BUFFERS) of each kind's statement for one batch, each under a savepoint rolled back, the batch then
     * written for real (on the raw connection: not charged to any kind, only to the backend's total).
     */
    private static void explain(Connection raw, ReducedBatch<Ev> batch) throws Exception {
        Connection explaining = (Connection) Proxy.newProxyInstance(WriteStatementsCost.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args.length == 1) {
                        return explainingStatement(raw, (String) args[0]);
                    }
                    try {
                        return method.invoke(raw, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        SingleConnectionDataSource ds = new SingleConnectionDataSource(explaining, true);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(ds));
        transaction.executeWithoutResult(status -> {
            new AssignmentWriter(new JdbcTemplate(ds)).apply(batch);
            status.setRollbackOnly();
        });
    }

    private static PreparedStatement explainingStatement(Connection raw, String sql) throws Exception {
        PreparedStatement ps = raw.prepareStatement(sql);
        boolean explained = Measured.kindOf(sql) != Kind.REST;
        List<Object[]> settings = new ArrayList<>();
        return (PreparedStatement) Proxy.newProxyInstance(WriteStatementsCost.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("set") && args != null && args.length == 2) {
                        settings.add(new Object[] {method, args});
                    }
                    if (explained && method.getName().startsWith("execute") && (args == null || args.length == 0)) {
                        StringBuilder plan = new StringBuilder("         -- " + Measured.kindOf(sql) + "\n");
                        try (Statement s = raw.createStatement()) {
                            s.execute("SAVEPOINT explained");
                        }
                        try (PreparedStatement ex = raw.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) "
                                + sql.replaceAll(";\\s*NOTIFY \\w+\\s*$", ""))) {
                            for (Object[] setting : settings) {
                                ((java.lang.reflect.Method) setting[0]).invoke(ex, (Object[]) setting[1]);
                            }
                            try (ResultSet rs = ex.executeQuery()) {
                                while (rs.next()) {
                                    plan.append("         ").append(rs.getString(1)).append('\n');
                                }
                            }
                        }
                        try (Statement s = raw.createStatement()) {
                            s.execute("ROLLBACK TO SAVEPOINT explained");
                        }
                        System.out.print(plan);
                    }
                    try {
                        return method.invoke(ps, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The backend's CPU from utime + stime of /proc/<pid>/stat (10 ms ticks). */
    static long statNanos(int pid) throws Exception {
        String line = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }

    /** The backend's CPU in nanoseconds from /proc/<pid>/schedstat (its first field: time on a CPU). */
    static long schedNanos(int pid) {
        try {
            String line = Files.readString(Path.of("/proc/" + pid + "/schedstat"));
            return Long.parseLong(line.substring(0, line.indexOf(' ')));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A connection that charges each statement's backend CPU to its kind, and, for a history variant, holds the
     * writer's history statements back and replays them before the commit.
     */
    static final class Measured {
        final Connection raw;
        final int pid;
        final String variant;
        final String form;
        final int chunk;
        /** A probe, not a candidate: the follow without its self-join for the prior revision ({@code healed} false). */
        final boolean noPrior;
        final Map<Kind, Long> nanos = new EnumMap<>(Kind.class);
        final Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        /** The plain arrays behind the java.sql.Arrays this connection made, to replay them. */
        final Map<Array, Object[]> arrays = new IdentityHashMap<>();
        /** The held-back history entries: 7 columns, in the writer's order. */
        final List<List<Object>> held = new ArrayList<>();
        boolean notify;
        /** Replays the held-back history before a rollback too (the paired comparison rolls every batch back). */
        boolean replayOnRollback;

        Measured(Connection raw, int pid, String variant) {
            this.raw = raw;
            this.pid = pid;
            this.variant = variant;
            String history = variant.split("\\+")[0];
            this.noPrior = variant.contains("+noprior");
            this.form = history.contains("@") ? history.substring(0, history.indexOf('@')) : history;
            this.chunk = history.contains("@") ? Integer.parseInt(history.substring(history.indexOf('@') + 1))
                    : AssignmentWriter.HISTORY_ROWS_PER_STATEMENT;
            if (form.equals("current") && history.contains("@")) {
                throw new IllegalArgumentException("current runs the writer's statements as they are: for other chunks "
                        + "use replay@N, not " + variant);
            }
            for (int i = 0; i < 7; i++) {
                held.add(new ArrayList<>());
            }
            reset();
        }

        void reset() {
            for (Kind kind : Kind.values()) {
                nanos.put(kind, 0L);
                counts.put(kind, 0);
            }
        }

        boolean replays() {
            return !form.equals("current");
        }

        static Kind kindOf(String sql) {
            return sql.startsWith(AssignmentWriter.UPSERT_NAME) ? Kind.UPSERT
                    : sql.contains("_followed AS") ? Kind.FOLLOW
                    : sql.contains("INSERT INTO case_assignment_history") ? Kind.HISTORY : Kind.REST;
        }

        Object timed(Kind kind, Callable call) throws Throwable {
            long before = schedNanos(pid);
            try {
                return call.call();
            } finally {
                nanos.merge(kind, schedNanos(pid) - before, Long::sum);
                counts.merge(kind, 1, Integer::sum);
            }
        }

        interface Callable {
            Object call() throws Throwable;
        }

        Connection connection() {
            return (Connection) Proxy.newProxyInstance(WriteStatementsCost.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "prepareStatement" -> {
                                String sql = (String) args[0];
                                if (noPrior && kindOf(sql) == Kind.FOLLOW) {
                                    sql = sql.replaceAll(", \\w+ AS prior", "").replace("AND prior.id = e.id", "")
                                            .replace("prior.assignment_revision = ca.assignment_revision AS healed",
                                                    "false AS healed");
                                }
                                return statement(PreparedStatement.class, raw.prepareStatement(sql), sql);
                            }
                            case "createStatement" -> {
                                return statement(Statement.class, raw.createStatement(), null);
                            }
                            case "createArrayOf" -> {
                                Array array = raw.createArrayOf((String) args[0], (Object[]) args[1]);
                                if (replays()) {
                                    arrays.put(array, (Object[]) args[1]);
                                }
                                return array;
                            }
                            case "commit" -> {
                                if (replays()) {
                                    replay();
                                }
                                return timed(Kind.REST, () -> invoke(raw, method, args));
                            }
                            case "rollback" -> {
                                if (replayOnRollback) {
                                    replay();
                                }
                                clearHeld();
                                return timed(Kind.REST, () -> invoke(raw, method, args));
                            }
                            case "setAutoCommit" -> {
                                return timed(Kind.REST, () -> invoke(raw, method, args));
                            }
                            default -> {
                                return invoke(raw, method, args);
                            }
                        }
                    });
        }

        private <S extends Statement> S statement(Class<S> type, S statement, String preparedSql) {
            Map<Integer, Object[]> bound = new HashMap<>();
            return type.cast(Proxy.newProxyInstance(WriteStatementsCost.class.getClassLoader(), new Class<?>[] {type},
                    (proxy, method, args) -> {
                        String name = method.getName();
                        if (name.equals("setArray") && arrays.containsKey((Array) args[1])) {
                            bound.put((Integer) args[0], arrays.remove((Array) args[1]));
                        }
                        if (name.startsWith("execute")) {
                            String sql = preparedSql != null ? preparedSql : (String) args[0];
                            Kind kind = kindOf(sql);
                            if (kind == Kind.HISTORY && replays()) {
                                for (int column = 0; column < 7; column++) {
                                    held.get(column).addAll(Arrays.asList(bound.get(column + 1)));
                                }
                                notify |= sql.contains("NOTIFY");
                                bound.clear();
                                return name.equals("execute") ? Boolean.FALSE : null;
                            }
                            return timed(kind, () -> invoke(statement, method, args));
                        }
                        return invoke(statement, method, args);
                    }));
        }

        private void clearHeld() {
            held.forEach(List::clear);
            notify = false;
        }

        /** The held-back history in the variant's form and chunks, then the NOTIFY the writer sent with it. */
        private void replay() throws Throwable {
            replayStatements();
            if (notify) {
                try (Statement s = raw.createStatement()) {
                    timed(Kind.REST, () -> s.execute("NOTIFY " + AssignmentWriter.MOVED_CHANNEL));
                }
            }
            clearHeld();
        }

        /** The held-back history in the variant's form and chunks. */
        void replayStatements() throws Throwable {
            int n = held.get(0).size();
            boolean unordered = form.startsWith("unordered") || form.equals("lean");
            boolean plain = form.equals("unordered-plain") || form.equals("lean");
            boolean tstz = form.equals("tstz") || form.equals("lean");
            String sql = historySql(unordered, plain, tstz);
            for (int from = 0; from < n; from += chunk) {
                int to = Math.min(n, from + chunk);
                try (PreparedStatement ps = raw.prepareStatement(sql)) {
                    String[] types = {"uuid", "text", "text", "bigint", "text", tstz ? "timestamptz" : "text", "text"};
                    for (int column = 0; column < 7; column++) {
                        ps.setArray(column + 1, raw.createArrayOf(types[column], held.get(column).subList(from, to).toArray()));
                    }
                    timed(Kind.HISTORY, ps::execute);
                }
            }
        }

        static String historySql(boolean unordered, boolean plain, boolean tstz) {
            return String.format(Locale.ROOT, """
                    INSERT INTO case_assignment_history
                           (case_id, assignment_revision, assigned_worker_sub, supervisor_sub, jurisdiction, occurred_at, trace_id)
                    SELECT h.case_id, h.revision, h.worker, h.supervisor, h.jurisdiction, h.occurred_at, h.trace_id
                      FROM unnest(?::uuid[], ?::text[], ?::text[], ?::bigint[], ?::text[], %s, ?::text[])%s
                           AS h(case_id, worker, supervisor, revision, jurisdiction, occurred_at, trace_id%s)
                    %s
                    ON CONFLICT (case_id, assignment_revision) DO NOTHING
                    """, tstz ? "?::timestamptz[]" : "?::text[]::timestamptz[]", plain ? "" : " WITH ORDINALITY",
                    plain ? "" : ", position", unordered ? "" : " ORDER BY h.case_id, h.revision, h.position");
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
