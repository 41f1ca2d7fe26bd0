package org.caseassignments.api.fosterhome;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.KeepAliveHttp;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.DatabaseProxy;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * PATCHes of one foster home (renames, one client, each with the tag its last answer gave) while
 * {@code bench.creators} (8) clients create PROPOSED placements naming that home, each on a case of its own: the
 * creates' latencies show whether an insert's foreign-key check ({@code FOR KEY SHARE} on the home) waits for the
 * PATCH's row lock (ADR-060 D7: it must not), and the PATCHes per second, with the occupancy gate's triggers
 * ({@code foster_homes_capacity_gate}, {@code placements_home_gate}) enabled and disabled in this run's own database,
 * what the gate costs the PATCH; and, sampled from {@code pg_stat_activity} every 2 ms, how often a create was
 * waiting for a lock. Only the answers 2xx count in the latencies and the rates; the read that follows a
 * refused PATCH is not timed. Rounds alternate the order of the two arms; round 1 runs after a warm-up of
 * {@code bench.warmup} seconds. Opt-in, not part of the build; the command and the results are in BENCHMARKS.md.
 * System properties: {@code bench.creators} (8), {@code bench.seconds} (10 per arm and round),
 * {@code bench.warmup} (20), {@code bench.rounds} (3), {@code bench.patches.per.second} (0: as fast as answered),
 * {@code bench.database.delay} (unset: the API connects to PostgreSQL directly; {@code 250us}, {@code 0.5ms}: through
 * a {@link DatabaseProxy} adding that delay each way, for both arms).
 */
public final class HomePatchUnderCreatesPerformance {

    private static final int CREATORS = Integer.getInteger("bench.creators", 8);
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("bench.seconds", 10));
    private static final Duration WARMUP = Duration.ofSeconds(Long.getLong("bench.warmup", 20));
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    /**
     * PATCHes sent per second, each at its slot (0: one after another, as fast as they are answered). A fixed rate puts
     * the same PATCH work beside the creates in every build, so that what differs is how the PATCH locks the home.
     */
    private static final int PATCHES_PER_SECOND = Integer.getInteger("bench.patches.per.second", 0);
    /**
     * The one-way delay of a proxy between the API and PostgreSQL, or null for none. In production they are on
     * different hosts and every statement is a round trip: a rename holds its row lock from its UPDATE through the
     * audit insert to its commit, several round trips, and on loopback that time is too short to show against the
     * tail's spread on a shared machine. This program's own connections (setup, the gate's switch, the lock sampler)
     * stay direct.
     */
    private static final Duration DATABASE_DELAY = delay(System.getProperty("bench.database.delay"));
    /** Numbers the renames across arms, so that no PATCH repeats the name the last arm left (a 400: it changes nothing). */
    private static final AtomicLong RENAMES = new AtomicLong();
    private static final String[] GATE = {
            "ALTER TABLE foster_homes %s TRIGGER foster_homes_capacity_gate",
            "ALTER TABLE placements %s TRIGGER placements_home_gate"};

    /**
     * One arm of one round: the PATCHes' and the creates' latencies in microseconds and their outcomes; at a fixed rate,
     * how many PATCH slots had passed when the PATCH before them was answered.
     */
    record Arm(String name, Duration elapsed, long[] patches, long[] creates, Map<String, Long> outcomes,
               LockWaits lockWaits, long lateSlots) {

        double patchesPerSecond() {
            return patches.length / (elapsed.toNanos() / 1e9);
        }

        /** At a fixed rate, a warning when this arm sent less than 95 % of it: its PATCHes then differ from the other arm's. */
        Optional<String> missedRate() {
            return PATCHES_PER_SECOND > 0 && patchesPerSecond() < 0.95 * PATCHES_PER_SECOND
                    ? Optional.of("WARNING: %s sent %.0f PATCH/s, below 95 %% of bench.patches.per.second=%d (%d late slots)"
                            .formatted(name, patchesPerSecond(), PATCHES_PER_SECOND, lateSlots))
                    : Optional.empty();
        }

        static double millis(long[] micros, double p) {
            long[] sorted = micros.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1000.0;
        }

        @Override
        public String toString() {
            return "| %s | %.0f | %.2f | %.2f | %d | %.0f | %.2f | %.2f | %s | %s |".formatted(name, patchesPerSecond(),
                    millis(patches, 0.5), millis(patches, 0.99), creates.length,
                    creates.length / (elapsed.toNanos() / 1e9), millis(creates, 0.5), millis(creates, 0.99), lockWaits,
                    outcomes);
        }
    }

    /**
     * How often a create was seen waiting for a lock: {@code pg_stat_activity} sampled every 2 ms on a connection of
     * its own, counting the samples in which an {@code INSERT INTO placements} waits on a heavyweight lock (its
     * foreign-key check on the home's row, or any other).
     */
    record LockWaits(long samples, long waiting) {

        private static final String WAITING_CREATES = """
                SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'
                   AND query LIKE 'INSERT INTO placements%'""";

        static LockWaits sample(JdbcTemplate jdbc, CountDownLatch done) throws InterruptedException {
            long samples = 0;
            long waiting = 0;
            while (!done.await(2, TimeUnit.MILLISECONDS)) {
                samples++;
                if (jdbc.queryForObject(WAITING_CREATES, Long.class) > 0) {
                    waiting++;
                }
            }
            return new LockWaits(samples, waiting);
        }

        LockWaits plus(LockWaits other) {
            return new LockWaits(samples + other.samples, waiting + other.waiting);
        }

        @Override
        public String toString() {
            return "%d of %d (%.2f %%)".formatted(waiting, samples, samples == 0 ? 0 : 100.0 * waiting / samples);
        }
    }

    private HomePatchUnderCreatesPerformance() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        JdbcTemplate jdbc = db.jdbc();
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        List<UUID> cases = new ArrayList<>();
        for (int i = 0; i < CREATORS; i++) {
            cases.add(Cases.assignedTo(jdbc, "w-1", "s-1", 1));
        }
        DatabaseProxy proxy = DATABASE_DELAY == null ? null : DatabaseProxy.inFrontOf(db, DATABASE_DELAY);
        String apiUrl = proxy == null ? db.jdbcUrl() : proxy.jdbcUrl();
        // the URL is put in place here, not passed as an argument of its own: the program also runs on builds whose
        // TestApplication.arguments appends a repeated name (which Spring reads as a list)
        String[] arguments = Stream.of(TestApplication.arguments(db,
                        "--spring.datasource.hikari.maximum-pool-size=" + (CREATORS + 3)))
                .map(argument -> argument.startsWith("--spring.datasource.url=") ? "--spring.datasource.url=" + apiUrl : argument)
                .toArray(String[]::new);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class)
                .run(arguments)) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            System.out.println("PostgreSQL: " + jdbc.queryForObject("SELECT version()", String.class));
            System.out.println(proxy == null ? "Database: the API connects directly (no bench.database.delay)"
                    : "Database: the API's connections through a proxy adding %d µs each way; SELECT 1 round trip p50 %.3f ms through it, %.3f ms direct"
                            .formatted(proxy.delay().toNanos() / 1000, roundTripMillis(db, apiUrl), roundTripMillis(db, db.jdbcUrl())));
            System.out.println("JVM: " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
            System.out.println("Load average at start: " + Files.readString(Path.of("/proc/loadavg")).strip());
            run("warm-up", WARMUP, port, home, cases, jdbc);
            List<Arm> arms = new ArrayList<>();
            double[] patches = new double[2];
            for (int round = 1; round <= ROUNDS; round++) {
                for (boolean gate : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    for (String statement : GATE) {
                        jdbc.execute(statement.formatted(gate ? "ENABLE" : "DISABLE"));
                    }
                    Arm arm = run("gate " + (gate ? "on" : "off") + ", round " + round, RUN, port, home, cases, jdbc);
                    arms.add(arm);
                    patches[gate ? 0 : 1] += arm.patches().length;
                }
            }
            System.out.println("Load average at end: " + Files.readString(Path.of("/proc/loadavg")).strip());
            System.out.println();
            System.out.println("| arm | PATCH/s | PATCH p50 ms | PATCH p99 ms | creates | creates/s | create p50 ms | "
                    + "create p99 ms | samples with a create waiting for a lock | outcomes |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
            arms.forEach(System.out::println);
            System.out.println();
            arms.stream().flatMap(arm -> arm.missedRate().stream()).forEach(System.out::println);
            if (PATCHES_PER_SECOND > 0) {
                System.out.printf("Gate on / off, all rounds: %.0f / %.0f PATCHes, sent at a fixed rate: the gate's cost "
                        + "is measured without bench.patches.per.second (as fast as answered)%n", patches[0], patches[1]);
            } else {
                System.out.printf("Gate on / off, all rounds: %.0f / %.0f PATCHes (gate's cost %.1f %%)%n", patches[0],
                        patches[1], (1 - patches[0] / patches[1]) * 100);
            }
            long[] gatedCreates = arms.stream().filter(arm -> arm.name().startsWith("gate on"))
                    .flatMapToLong(arm -> Arrays.stream(arm.creates())).toArray();
            System.out.printf("Creates with the gate, all rounds: p50 %.2f ms, p99 %.2f ms; seen waiting for a lock in "
                            + "%s of the samples%n", Arm.millis(gatedCreates, 0.5), Arm.millis(gatedCreates, 0.99),
                    arms.stream().filter(arm -> arm.name().startsWith("gate on")).map(Arm::lockWaits)
                            .reduce(new LockWaits(0, 0), LockWaits::plus));
        }
        System.exit(0);
    }

    /** {@code 250us}, {@code 250µs}, {@code 0.5ms}, {@code 1ms}; null when not given. */
    static Duration delay(String text) {
        if (text == null) {
            return null;
        }
        Matcher value = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms)").matcher(text.strip());
        if (!value.matches()) {
            throw new IllegalArgumentException("bench.database.delay=" + text + ": give a one-way delay in µs or ms, "
                    + "as 250us or 0.5ms");
        }
        double nanos = Double.parseDouble(value.group(1)) * (value.group(2).equals("ms") ? 1_000_000 : 1_000);
        return Duration.ofNanos(Math.round(nanos));
    }

    /** The median of 200 {@code SELECT 1}s on one connection to {@code url}, after 50 not counted. */
    private static double roundTripMillis(TestDatabase db, String url) throws SQLException {
        long[] micros = new long[200];
        try (Connection connection = DriverManager.getConnection(url, db.username(), db.password());
             Statement statement = connection.createStatement()) {
            for (int i = -50; i < micros.length; i++) {
                long t0 = System.nanoTime();
                try (ResultSet rs = statement.executeQuery("SELECT 1")) {
                    rs.next();
                }
                if (i >= 0) {
                    micros[i] = (System.nanoTime() - t0) / 1000;
                }
            }
        }
        return Arm.millis(micros, 0.5);
    }

    /** One PATCH client and {@link #CREATORS} create clients, each on its own connection, for {@code length}. */
    private static Arm run(String name, Duration length, int port, UUID home, List<UUID> cases, JdbcTemplate jdbc)
            throws InterruptedException {
        String token = TestTokens.admin("a-1").token();
        long deadline = System.nanoTime() + length.toNanos();
        Map<String, Long> outcomes = new ConcurrentHashMap<>();
        List<long[]> creates = new ArrayList<>();
        AtomicReference<long[]> patches = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(CREATORS + 1);
        long start = System.nanoTime();
        for (int c = 0; c < CREATORS; c++) {
            UUID caseId = cases.get(c);
            int index = c;
            synchronized (creates) {
                creates.add(new long[0]);
            }
            new Thread(() -> {
                try {
                    long[] mine = loop(port, deadline, outcomes, http -> { }, http -> http.exchange("POST",
                            "/cases/" + caseId + "/placements", token, Map.of(),
                            "{\"foster_home_id\": \"" + home + "\"}"), "create ");
                    synchronized (creates) {
                        creates.set(index, mine);
                    }
                } finally {
                    done.countDown();
                }
            }, "create-" + c).start();
        }
        AtomicReference<String> etag = new AtomicReference<>();
        AtomicLong lateSlots = new AtomicLong();
        new Thread(() -> {
            try {
                // the read after a refused PATCH is not timed: it is no part of the next PATCH
                long[] slot = {System.nanoTime()};
                patches.set(loop(port, deadline, outcomes, http -> {
                    if (PATCHES_PER_SECOND > 0) {
                        slot[0] += 1_000_000_000L / PATCHES_PER_SECOND;
                        long early = slot[0] - System.nanoTime();
                        if (early < 0) {
                            lateSlots.incrementAndGet();
                        }
                        LockSupport.parkNanos(early);
                    }
                    if (etag.get() == null) {
                        etag.set(http.exchange("GET", "/foster-homes/" + home, token, Map.of(), null).header("etag"));
                    }
                }, http -> {
                    KeepAliveHttp.Response answer = http.exchange("PATCH", "/foster-homes/" + home, token,
                            Map.of("If-Match", etag.get()), "{\"name\": \"Maple House " + RENAMES.incrementAndGet() + "\"}");
                    etag.set(answer.status() == 200 ? answer.header("etag") : null);
                    return answer;
                }, "patch "));
            } finally {
                done.countDown();
            }
        }, "patch").start();
        LockWaits lockWaits = LockWaits.sample(jdbc, done);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        Arm arm = new Arm(name, elapsed, patches.get(), creates.stream().flatMapToLong(Arrays::stream).toArray(),
                new TreeMap<>(outcomes), lockWaits, lateSlots.get());
        System.out.println(arm);
        arm.missedRate().ifPresent(System.out::println);
        return arm;
    }

    private interface Exchange {
        KeepAliveHttp.Response answer(KeepAliveHttp http) throws Exception;
    }

    private interface Preparation {
        void prepare(KeepAliveHttp http) throws Exception;
    }

    /**
     * Sends {@code exchange}, after an untimed {@code preparation}, until the deadline over one kept-alive connection;
     * the latencies in microseconds of the exchanges answered 2xx alone (every outcome is counted in {@code outcomes}).
     */
    private static long[] loop(int port, long deadline, Map<String, Long> outcomes, Preparation preparation,
                               Exchange exchange, String kind) {
        long[] latencies = new long[1024];
        int count = 0;
        KeepAliveHttp http = KeepAliveHttp.open(port);
        try {
            while (System.nanoTime() < deadline) {
                String outcome;
                boolean succeeded = false;
                long t0 = System.nanoTime();
                try {
                    preparation.prepare(http);
                    t0 = System.nanoTime();
                    KeepAliveHttp.Response answer = exchange.answer(http);
                    outcome = kind + answer.status();
                    succeeded = answer.status() / 100 == 2;
                    if (answer.closes()) {
                        http.close();
                        http = KeepAliveHttp.open(port);
                    }
                } catch (Exception e) {
                    outcome = kind + e.getClass().getSimpleName();
                    http.close();
                    http = KeepAliveHttp.open(port);
                }
                if (succeeded) {
                    if (count == latencies.length) {
                        latencies = Arrays.copyOf(latencies, count * 2);
                    }
                    latencies[count++] = (System.nanoTime() - t0) / 1000;
                }
                outcomes.merge(outcome, 1L, Long::sum);
            }
            return Arrays.copyOf(latencies, count);
        } finally {
            http.close();
        }
    }
}
