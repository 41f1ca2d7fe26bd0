package org.caseassignments.api.kinship;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.assignment.AssignmentPair;
import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.audit.AuditWithoutWrites;
import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.policy.ResourceField;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.KeepAliveHttp;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.api.testsupport.WarmUp;
import org.caseassignments.api.write.GuardedUpdate;
import org.caseassignments.api.write.GuardedUpdates;
import org.caseassignments.api.write.Locked;
import org.caseassignments.api.write.StalenessGate;
import org.caseassignments.api.write.ResourceUpdate;
import org.caseassignments.api.write.Versioned;
import org.caseassignments.testkit.Rows;
import org.caseassignments.store.LockOrder.CaseScopedTable;
import org.caseassignments.store.hold.CaseHold;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Opt-in benchmark (never run by the build; see BENCHMARKS.md for the command and the results).
 * PATCH of a kinship option (a name change: one policy evaluation, the staleness gate, the version
 * check) at a fixed concurrency:
 * <ol>
 *   <li>over HTTP, each client on its own row (no contention) and all clients on one row (contention:
 *       a 412 makes the client GET the new ETag and try again);</li>
 *   <li>the same SQL the API runs for one PATCH, driven by {@code pgbench} at the same concurrency,
 *       on the same rows — the database's ceiling for this write;</li>
 *   <li>the update path in-process, with and without the staleness gate, otherwise identical;</li>
 *   <li>a read: {@code GET /placements/{id}}, each client its own placement, against {@code pgbench}
 *       running the API's {@code SELECT} for it;</li>
 *   <li>the update path in-process, with and without the audit record insert (decision 18), otherwise
 *       identical, in alternating order over {@code bench.audit-rounds} rounds.</li>
 * </ol>
 * Each form is warmed up until the JVM has settled (throughput stable and the JIT compiler nearly idle,
 * see {@link WarmUp}), not for a fixed time: the JIT needs tens of thousands of requests. Every row
 * reports the CPU it cost per request from {@code /proc}: the JVM without the load generator's threads
 * (the server), the load generator's threads, and the PostgreSQL backends.
 * System properties: {@code bench.concurrency} (8), {@code bench.seconds} (15), {@code bench.warmup} (5),
 * the warm-up's (see {@link WarmUp}), {@code bench.gate-seconds} (10, each of the in-process runs), {@code bench.rounds} (3 rounds of
 * the two in-process variants), {@code bench.parts}
 * ({@code patch,read,contended,inprocess}, and {@code audit} for the audit comparison at the end, {@code home} for
 * PATCHes of an ACTIVE placement in a foster home: a date change, and a move to another home, through the
 * occupancy gate),
 * {@code bench.audit-rounds} (4), {@code bench.only} ({@code audit}: only the audit comparison); any application setting as a system property, such as
 * {@code -Dspring.threads.virtual.enabled=true} or {@code -Dauth.token-cache.maximum-size=0}.
 */
public final class PatchPerformance {

    private static final int CONCURRENCY = Integer.getInteger("bench.concurrency", 8);
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("bench.seconds", 15));
    private static final Duration WARMUP = Duration.ofSeconds(Long.getLong("bench.warmup", 5));
    private static final UUID CONTENDED = row(0);
    private static final Set<String> PARTS = Set.of(System.getProperty("bench.parts", "patch,read,contended,inprocess")
            .split(","));

    /** {@code KinshipOptions}' columns: the row and its case's jurisdiction. */
    private static final String KINSHIP_COLUMNS = """
            id, case_id, relative_name, relationship, approved, assigned_worker_sub, supervisor_sub, \
            assignment_revision, row_version, created_at, updated_at, created_by, \
            (SELECT ca.jurisdiction FROM case_assignments ca WHERE ca.case_id = kinship_options.case_id) AS jurisdiction""";

    private static final String PLACEMENT_COLUMNS = """
            id, case_id, status, foster_home_id, start_date, end_date, assigned_worker_sub, supervisor_sub, \
            assignment_revision, row_version, created_at, updated_at, created_by, \
            (SELECT ca.jurisdiction FROM case_assignments ca WHERE ca.case_id = placements.case_id) AS jurisdiction""";

    /** Latencies in microseconds and outcomes of one measured run. */
    record Result(String name, long[] latenciesMicros, Map<String, Long> outcomes, Duration elapsed, Cpu.Used cpu) {
        double perSecond() {
            return latenciesMicros.length / (elapsed.toNanos() / 1e9);
        }

        double percentileMillis(double p) {
            long[] sorted = latenciesMicros.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1000.0;
        }

        @Override
        public String toString() {
            return "| %s | %d | %.0f | %.2f | %.2f | %s | %s |".formatted(name, CONCURRENCY, perSecond(),
                    percentileMillis(0.50), percentileMillis(0.99), cpu.perRequest(latenciesMicros.length), outcomes);
        }
    }

    private PatchPerformance() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        Cpu.database = URI.create(db.jdbcUrl().substring("jdbc:".length())).getPath().substring(1);
        JdbcTemplate jdbc = db.jdbc();
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        for (int i = 0; i <= CONCURRENCY; i++) {
            Rows.kinshipOption(caseId).id(row(i)).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            Rows.placement(caseId).id(placement(i)).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            // an ACTIVE placement in a foster home of its own, with a second home to move to
            Rows.fosterHome().id(home(i, 0)).capacity(1).insert(jdbc);
            Rows.fosterHome().id(home(i, 1)).capacity(1).insert(jdbc);
            Rows.placement(caseId).id(placedInHome(i)).worker("w-1").supervisor("s-1").revision(1).in(home(i, 0))
                    .status("ACTIVE").insert(jdbc);
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class)
                .run(settings(db))) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            List<Result> results = new ArrayList<>();
            System.out.println("PostgreSQL: " + jdbc.queryForObject("SELECT version()", String.class));
            System.out.println("JVM: " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
            System.out.println("Load average at start: " + Files.readString(Path.of("/proc/loadavg")).strip());
            app.getBean(org.springframework.security.web.FilterChainProxy.class).getFilterChains().forEach(chain ->
                    System.out.println("Security filters: " + chain.getFilters().stream()
                            .map(filter -> filter.getClass().getSimpleName()).toList()));
            System.out.println("Settings: virtual threads " + app.getEnvironment().getProperty("spring.threads.virtual.enabled",
                    "false") + ", token cache " + app.getEnvironment().getProperty("auth.token-cache.maximum-size", "default"));
            if ("audit".equals(System.getProperty("bench.only"))) {
                auditComparison(app, db, results);
                System.exit(0);
            }

            if (PARTS.contains("patch")) {
                warmUp("HTTP PATCH", httpClient(port, false));
                results.add(run("HTTP PATCH, own row per client", RUN, httpClient(port, false)));
                pgbench(db, "pgbench, same SQL, own row per client", patchScript(false)).ifPresent(results::add);
            }
            if (PARTS.contains("home")) {
                homeGateComparison(port, jdbc, results);
            }
            if (PARTS.contains("read")) {
                warmUp("HTTP GET", readClient(port));
                results.add(run("HTTP GET placement, own row per client", RUN, readClient(port)));
                pgbench(db, "pgbench, the GET's SELECT, own row per client", readScript()).ifPresent(results::add);
            }
            if (PARTS.contains("contended")) {
                results.add(http(port, "HTTP PATCH, one row for all clients (412 → GET → retry)", true));
                pgbench(db, "pgbench, same SQL, one row for all clients", patchScript(true)).ifPresent(results::add);
            }
            if (PARTS.contains("inprocess")) {
                KinshipOptions options = app.getBean(KinshipOptions.class);
                GuardedUpdate updates = app.getBean(GuardedUpdate.class);
                // Alternating order over three rounds, so neither variant always runs on a warmer JVM.
                for (int round = 1; round <= Integer.getInteger("bench.rounds", 3); round++) {
                    for (boolean gate : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                        results.add(inProcess(options, updates, "in-process update path, "
                                + (gate ? "with staleness gate" : "gate removed") + " (round " + round + ")", gate));
                    }
                }
            }
            System.out.println();
            System.out.println("| run | clients | requests/s | p50 ms | p99 ms | CPU ms per request: " + Cpu.COLUMNS
                    + " | outcomes |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            results.forEach(System.out::println);
            if (PARTS.contains("inprocess")) {
                System.out.printf("%nStaleness compare alone: %.1f ns per call%n", compareAloneNanos());
            }
            if (PARTS.contains("audit")) {
                auditComparison(app, db, new ArrayList<>());
            }
        }
        System.exit(0);
    }

    private static String[] settings(TestDatabase db) {
        return new String[] {
                "--spring.datasource.url=" + db.jdbcUrl(), "--spring.datasource.username=" + db.username(),
                "--spring.datasource.password=" + db.password(),
                "--spring.datasource.hikari.maximum-pool-size=" + (CONCURRENCY + 2),
                "--auth.issuer=" + TestTokens.ISSUER, "--auth.audience=" + TestTokens.AUDIENCE,
                "--auth.public-key-location=file:" + TestTokens.publicKeyPem(),
                "--api.etag-secret=" + TestETags.SECRET, "--server.port=0", "--policy.reload-interval=0s"};
    }

    /**
     * The update path with its audit insert and without it (the same path with an audit trail whose write
     * record is a no-op), in process and over HTTP (a second instance of the application on the same
     * database, identical but for that trail), alternating which goes first each round so that neither
     * always runs on a warmer JVM or a quieter machine; each ratio is of the totals over all rounds.
     */
    private static void auditComparison(ConfigurableApplicationContext app, TestDatabase db, List<Result> results)
            throws Exception {
        KinshipOptions options = app.getBean(KinshipOptions.class);
        GuardedUpdate audited = app.getBean(GuardedUpdate.class);
        GuardedUpdate unaudited = GuardedUpdates.with(app, AuditWithoutWrites.of(app));
        int rounds = Integer.getInteger("bench.audit-rounds", 4);
        long[] inProcess = new long[2];
        long[] overHttp = new long[2];
        try (ConfigurableApplicationContext withoutRecords = new SpringApplicationBuilder(MutationApiApplication.class)
                .initializers(context -> ((GenericApplicationContext) context).registerBean("auditTrailWithoutWrites",
                        AuditTrail.class, () -> AuditWithoutWrites.of(context), definition -> definition.setPrimary(true)))
                .run(settings(db))) {
            int auditedPort = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            int unauditedPort = Integer.parseInt(withoutRecords.getEnvironment().getProperty("local.server.port"));
            Duration httpWarmup = Duration.ofSeconds(Long.getLong("bench.http-warmup", 30));
            run("HTTP warm-up, with audit insert", httpWarmup, httpClient(auditedPort, false));
            run("HTTP warm-up, audit insert removed", httpWarmup, httpClient(unauditedPort, false));
            for (int round = 1; round <= rounds; round++) {
                for (boolean audit : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    String variant = (audit ? "with audit insert" : "audit insert removed") + " (round " + round + ")";
                    Result local = inProcess(options, audit ? audited : unaudited, "in-process update path, " + variant,
                            true);
                    Result http = http(audit ? auditedPort : unauditedPort, "HTTP PATCH, own row per client, " + variant,
                            false);
                    results.add(local);
                    results.add(http);
                    if (round > 1) {
                        // round 1 still compiles the path
                        inProcess[audit ? 0 : 1] += local.latenciesMicros().length;
                        overHttp[audit ? 0 : 1] += http.latenciesMicros().length;
                    }
                }
            }
        }
        System.out.println();
        System.out.println("| run | clients | requests/s | p50 ms | p99 ms | outcomes |");
        System.out.println("|---|---|---|---|---|---|");
        results.forEach(System.out::println);
        // every run of a kind lasts equally long, so the totals compare as rates
        System.out.printf("%nAudit insert, rounds 2-%d: in process %d vs %d writes (%.1f %% slower); over HTTP %d vs %d "
                        + "(%.1f %% slower)%n", rounds, inProcess[0], inProcess[1],
                (1 - inProcess[0] / (double) inProcess[1]) * 100, overHttp[0], overHttp[1],
                (1 - overHttp[0] / (double) overHttp[1]) * 100);
    }

    /**
     * PATCHes of an ACTIVE placement in a foster home, each client its own placement and two homes of its own:
     * a date change (the gate's trigger runs and returns at once) and a move to the other home (it locks the
     * destination, counts its ACTIVE placements and reads its licence), with the gate's trigger enabled and
     * disabled in alternating order over {@code bench.rounds} rounds of each; round 1 still compiles the path and
     * is left out of the ratio. The audit record's count of the home's placements runs in both.
     */
    private static void homeGateComparison(int port, JdbcTemplate jdbc, List<Result> results) throws Exception {
        Map<String, java.util.function.BiFunction<Integer, Long, String>> changes = Map.of(
                "start_date", (i, n) -> "{\"start_date\": \"2026-01-0" + (1 + n % 2) + "\"}",
                "foster_home_id", (i, n) -> "{\"foster_home_id\": \"" + home(i, (int) (n % 2)) + "\"}");
        int rounds = Integer.getInteger("bench.rounds", 3);
        for (String field : List.of("start_date", "foster_home_id")) {
            Client client = patchClient(port, i -> "/placements/" + placedInHome(i), changes.get(field));
            warmUp("HTTP PATCH placement in a home, " + field, client);
            long[] writes = new long[2];
            for (int round = 1; round <= rounds; round++) {
                for (boolean gate : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    jdbc.execute("ALTER TABLE placements " + (gate ? "ENABLE" : "DISABLE") + " TRIGGER placements_home_gate");
                    Result result = run("HTTP PATCH ACTIVE placement in a home, " + field + ", gate "
                            + (gate ? "on" : "off") + " (round " + round + ")", RUN, client);
                    results.add(result);
                    if (round > 1) {
                        writes[gate ? 0 : 1] += result.latenciesMicros().length;
                    }
                }
            }
            jdbc.execute("ALTER TABLE placements ENABLE TRIGGER placements_home_gate");
            System.out.printf("Gate, %s, rounds 2-%d: %d vs %d writes (%.1f %% slower)%n", field, rounds, writes[0],
                    writes[1], (1 - writes[0] / (double) writes[1]) * 100);
        }
    }

    /** Deterministic row ids, so pgbench can compute its client's row from {@code :client_id}. */
    private static UUID row(int n) {
        return UUID.fromString("00000000-0000-0000-0000-%012d".formatted(n + 1));
    }

    private static UUID placement(int n) {
        return UUID.fromString("00000000-0000-0000-0001-%012d".formatted(n + 1));
    }

    /** Client {@code n}'s ACTIVE placement, in its home 0 at the start. */
    private static UUID placedInHome(int n) {
        return UUID.fromString("00000000-0000-0000-0002-%012d".formatted(n + 1));
    }

    private static UUID home(int n, int side) {
        return UUID.fromString("00000000-0000-0000-%04d-%012d".formatted(3 + side, n + 1));
    }

    private static void warmUp(String name, Client client) throws Exception {
        WarmUp.untilSettled(name, (window, length) -> run(window, length, client).perSecond());
    }

    private static Client readClient(int port) {
        String token = TestTokens.caseworker("w-1").token();
        Map<Integer, KeepAliveHttp> connections = new ConcurrentHashMap<>();
        return i -> {
            KeepAliveHttp http = connections.computeIfAbsent(i, ignored -> KeepAliveHttp.open(port));
            KeepAliveHttp.Response response = http.exchange("GET", "/placements/" + placement(i + 1), token, Map.of(), null);
            if (response.closes()) {
                connections.remove(i).close();
            }
            return String.valueOf(response.status());
        };
    }

    private interface Client {
        /** @return the outcome to count, e.g. "200" */
        String once(int client) throws Exception;
    }

    private static Result http(int port, String name, boolean contended) throws Exception {
        Client client = httpClient(port, contended);
        run(name + " (warm-up)", WARMUP, client);
        return run(name, RUN, client);
    }

    private static Client httpClient(int port, boolean contended) {
        return patchClient(port, i -> "/kinship-options/" + (contended ? CONTENDED : row(i)),
                (i, n) -> "{\"relative_name\": \"Relative " + n + "\"}");
    }

    /**
     * PATCHes of client {@code i + 1}'s row: reads the ETag first and after a refusal, then sends {@code body}
     * with the client's count of answered PATCHes.
     */
    private static Client patchClient(int port, java.util.function.IntFunction<String> pathOf,
                                      java.util.function.BiFunction<Integer, Long, String> body) {
        String token = TestTokens.caseworker("w-1").token();
        Map<Integer, KeepAliveHttp> connections = new ConcurrentHashMap<>();
        Map<Integer, String> etags = new ConcurrentHashMap<>();
        Map<Integer, AtomicLong> counters = new ConcurrentHashMap<>();
        return i -> {
            KeepAliveHttp http = connections.computeIfAbsent(i, ignored -> KeepAliveHttp.open(port));
            String path = pathOf.apply(i + 1);
            String etag = etags.get(i);
            if (etag == null) {
                KeepAliveHttp.Response read = http.exchange("GET", path, token, Map.of(), null);
                etag = read.header("etag");
                if (read.closes()) {
                    connections.remove(i).close();
                    http = connections.computeIfAbsent(i, ignored -> KeepAliveHttp.open(port));
                }
            }
            KeepAliveHttp.Response response = http.exchange("PATCH", path, token, etag == null ? Map.of() : Map.of("If-Match", etag),
                    body.apply(i + 1, counters.computeIfAbsent(i, ignored -> new AtomicLong()).incrementAndGet()));
            if (response.closes()) {
                connections.remove(i).close();
            }
            if (response.status() == 200) {
                etags.put(i, response.header("etag"));
            } else {
                etags.remove(i);
            }
            return String.valueOf(response.status());
        };
    }

    private static Result inProcess(KinshipOptions options, GuardedUpdate updates, String name, boolean gate)
            throws Exception {
        Caller caller = new Caller("w-1", List.of("caseworker"), "georgia", List.of());
        Map<Integer, Long> versions = new ConcurrentHashMap<>();
        AtomicLong counter = new AtomicLong();
        Client client = i -> {
            UUID id = row(i + 1);
            long version = versions.computeIfAbsent(i, ignored -> options.find(id).orElseThrow().rowVersion());
            ResourceUpdate<KinshipOption> steps = KinshipOptionUpdate.update(options, id,
                    new UpdateKinshipOptionRequest(java.util.Optional.of("Relative " + counter.incrementAndGet()), null, null));
            KinshipOption written = updates.run(caller, null, IfMatch.parse(List.of(TestETags.kinshipOption(id, version))),
                    gate ? steps : new WithoutGate<>(steps));
            versions.put(i, written.rowVersion());
            return "ok";
        };
        warmUp(name, client);
        return run(name, Duration.ofSeconds(Long.getLong("bench.gate-seconds", 10)), client);
    }

    /**
     * The same steps with the staleness gate made free, for the overhead comparison only: every image
     * is the first one built, so each comparison of the gate is an identity check.
     */
    private static final class WithoutGate<R extends Versioned> implements ResourceUpdate<R> {
        private final ResourceUpdate<R> steps;
        private ResourceRef image;

        WithoutGate(ResourceUpdate<R> steps) {
            this.steps = steps;
        }

        public String describe() {
            return steps.describe();
        }

        public Optional<R> preRead() {
            return steps.preRead();
        }

        public Optional<Locked<R>> lockedRead() {
            return steps.lockedRead();
        }

        public ResourceRef resourceOf(R row) {
            if (image == null) {
                image = steps.resourceOf(row);
            }
            return image;
        }

        public R afterImage(R row) {
            return steps.afterImage(row);
        }

        public void validate(R locked) {
            steps.validate(locked);
        }

        public R write(Locked<R> locked) {
            return steps.write(locked);
        }
    }

    private static Result run(String name, Duration duration, Client client) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        List<long[]> latencies = new ArrayList<>();
        Map<String, Long> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(CONCURRENCY);
        AtomicLong clientCpu = new AtomicLong();
        Cpu before = Cpu.now();
        long start = System.nanoTime();
        for (int c = 0; c < CONCURRENCY; c++) {
            int index = c;
            long[][] mine = {new long[1024]};
            int[] count = {0};
            synchronized (latencies) {
                latencies.add(null);
            }
            new Thread(() -> {
                try {
                    while (System.nanoTime() < deadline) {
                        long t0 = System.nanoTime();
                        String outcome;
                        try {
                            outcome = client.once(index);
                        } catch (Exception e) {
                            outcome = e.getClass().getSimpleName();
                        }
                        long micros = (System.nanoTime() - t0) / 1000;
                        if (count[0] == mine[0].length) {
                            mine[0] = Arrays.copyOf(mine[0], count[0] * 2);
                        }
                        mine[0][count[0]++] = micros;
                        outcomes.merge(outcome, 1L, Long::sum);
                    }
                } finally {
                    clientCpu.addAndGet(java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
                    synchronized (latencies) {
                        latencies.set(index, Arrays.copyOf(mine[0], count[0]));
                    }
                    done.countDown();
                }
            }, "bench-" + c).start();
        }
        done.await();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
        Result result = new Result(name, all, new TreeMap<>(outcomes), elapsed, Cpu.now().since(before, clientCpu.get()));
        System.out.println(result);
        return result;
    }

    /**
     * The API's SQL for one PATCH, statement for statement: the pre-read outside a transaction, then the
     * locked re-read, the versioned update and its audit record (decision 18) in one transaction. Skipped
     * (and said so) when pgbench is not installed.
     */
    private static String patchScript(boolean contended) {
        // -M prepared: variables travel as bind parameters, like the JDBC driver's prepared statements
        String id = contended ? "'" + CONTENDED + "'"
                : "'00000000-0000-0000-0000-' || lpad((:client_id + 2)::text, 12, '0')";
        return """
                SELECT %1$s AS id \\gset
                SELECT %2$s FROM kinship_options WHERE id = :id AND active;
                BEGIN;
                SELECT row_version AS v, case_id AS c, assignment_revision AS r, %2$s FROM kinship_options WHERE id = :id AND active FOR NO KEY UPDATE \\gset locked_
                UPDATE kinship_options SET relative_name = 'Relative ' || :client_id, relationship = relationship, approved = approved, updated_at = now(), %3$s WHERE id = :id AND row_version = :locked_v AND active RETURNING %2$s;
                INSERT INTO audit_records (recorded_at, request_id, outcome, status, problem_code, caller_sub, caller_roles, jurisdiction, action, resource_type, resource_id, case_id, ruleset_jurisdiction, ruleset_version, rule_id, after_rule_id, assignment_revision, assigned_worker_sub, supervisor_sub, row_version_before, row_version_after) VALUES (COALESCE(NULL, now()), 'pgbench-' || :client_id, 'WRITTEN', 200, NULL, 'w-1', '{caseworker}', 'georgia', 'update', 'kinship_option', :id, :locked_c, 'georgia', '1.0.0', 'caseworker-own-case', 'caseworker-own-case', :locked_r, 'w-1', 's-1', :locked_v, :locked_v + 1);
                COMMIT;
                """.formatted(id, KINSHIP_COLUMNS,
                // one line: pgbench ends a meta-command at the line's end
                CaseHold.copyFromProjection(CaseScopedTable.KINSHIP_OPTIONS).replace('\n', ' '));
    }

    /** The GET's one statement ({@code Placements.find}), on the client's own placement. */
    private static String readScript() {
        return """
                SELECT '00000000-0000-0000-0001-' || lpad((:client_id + 2)::text, 12, '0') AS id \\gset
                SELECT %s FROM placements WHERE id = :id;
                """.formatted(PLACEMENT_COLUMNS);
    }

    private static Optional<Result> pgbench(TestDatabase db, String name, String sql) throws Exception {
        Path script = Files.createTempFile("bench-", ".sql");
        Files.writeString(script, sql);
        URI uri = URI.create(db.jdbcUrl().substring("jdbc:".length()));
        Path logs = Files.createTempDirectory("pgbench-");
        List<String> command = List.of("pgbench", "-n", "-M", "prepared", "-c", String.valueOf(CONCURRENCY), "-j", "2",
                "-T", String.valueOf(RUN.toSeconds()), "-f", script.toString(), "-l", "--log-prefix=" + logs.resolve("tx"),
                "-h", uri.getHost(), "-p", String.valueOf(uri.getPort()), "-U", db.username(),
                uri.getPath().substring(1));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", db.password());
        Process process;
        Cpu pgbenchStart = Cpu.now();
        try {
            process = builder.start();
        } catch (IOException e) {
            System.out.println("pgbench is not installed (" + e.getMessage() + "); skipping: " + name);
            return Optional.empty();
        }
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException("pgbench failed:\n" + output);
        }
        Cpu.Used cpu = Cpu.now().since(pgbenchStart);
        List<Long> latencies = new ArrayList<>();
        try (Stream<Path> files = Files.list(logs)) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    latencies.add(Long.parseLong(line.split(" ")[2]));
                }
            }
        }
        Result result = new Result(name, latencies.stream().mapToLong(Long::longValue).toArray(),
                Map.of("committed", (long) latencies.size()), RUN, cpu);
        System.out.println(result);
        return Optional.of(result);
    }

    private static double compareAloneNanos() {
        UUID id = UUID.randomUUID();
        UUID caseId = UUID.randomUUID();
        ResourceRef a = KinshipOption.resource(id, caseId, new AssignmentPair("w-1", "s-1"), false, "georgia");
        ResourceRef b = KinshipOption.resource(id, caseId, new AssignmentPair(
                new String("w-1"), new String("s-1")), false, new String("georgia"));
        Set<ResourceField> compared = StalenessGate.compared(Set.of(ResourceField.ASSIGNED_WORKER_SUB));
        int n = 50_000_000;
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < n / 10; i++) {
                StalenessGate.refuseIfChanged(compared, a, b, "x");
            }
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            StalenessGate.refuseIfChanged(compared, a, b, "x");
        }
        return (System.nanoTime() - t0) / (double) n;
    }
}
