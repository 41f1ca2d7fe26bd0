package org.caseassignments.api.idempotency;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.KeepAliveHttp;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.api.testsupport.WarmUp;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Opt-in benchmark (never run by the build; see BENCHMARKS.md for the command and the results).
 * {@code POST /cases/{caseId}/kinship-options} over HTTP at a fixed concurrency, each client on its own
 * case, with a fresh {@code Idempotency-Key} per request and without one, alternating the order over
 * rounds so that neither variant always runs on a warmer JVM, after a warm-up of both alternating until
 * the JVM has settled ({@link WarmUp}).
 * System properties: {@code bench.concurrency} (8), {@code bench.seconds} (10), {@code bench.rounds} (3),
 * and the warm-up's.
 */
public final class IdempotencyPerformance {

    private static final int CONCURRENCY = Integer.getInteger("bench.concurrency", 8);
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("bench.seconds", 10));
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final String BODY = "{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}";

    private IdempotencyPerformance() {
    }

    record Result(String name, long[] latenciesMicros, Map<String, Long> outcomes, Duration elapsed) {
        double perSecond() {
            return latenciesMicros.length / (elapsed.toNanos() / 1e9);
        }

        double percentileMillis(double p) {
            long[] sorted = latenciesMicros.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0
                    : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1000.0;
        }

        @Override
        public String toString() {
            return "| %s | %.0f | %.2f | %.2f | %s |".formatted(name, perSecond(), percentileMillis(0.50),
                    percentileMillis(0.99), outcomes);
        }
    }

    public static void main(String[] args) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        List<UUID> cases = new ArrayList<>();
        for (int i = 0; i < CONCURRENCY; i++) {
            cases.add(Cases.assignedTo(db.jdbc(), "w-1", "s-1", 1));
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class).run(
                "--spring.datasource.url=" + db.jdbcUrl(), "--spring.datasource.username=" + db.username(),
                "--spring.datasource.password=" + db.password(),
                "--spring.datasource.hikari.maximum-pool-size=" + (CONCURRENCY + 2),
                "--auth.issuer=" + TestTokens.ISSUER, "--auth.audience=" + TestTokens.AUDIENCE,
                "--auth.public-key-location=file:" + TestTokens.publicKeyPem(),
                "--api.etag-secret=" + TestETags.SECRET, "--server.port=0", "--policy.reload-interval=0s")) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            System.out.println("PostgreSQL: " + db.jdbc().queryForObject("SELECT version()", String.class));
            System.out.println("JVM: " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
            WarmUp.untilSettled("both alternating", (window, length) -> run(window, length, port, cases, null).perSecond());
            List<Result> results = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                for (boolean key : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    results.add(run("HTTP create, " + (key ? "with" : "without") + " Idempotency-Key (round " + round
                            + ")", RUN, port, cases, key));
                }
            }
            System.out.println();
            System.out.println("| run | requests/s | p50 ms | p99 ms | outcomes |");
            System.out.println("|---|---:|---:|---:|---|");
            results.forEach(System.out::println);
        }
        System.exit(0);
    }

    /** @param withKey null: alternate per request (warm-up) */
    private static Result run(String name, Duration duration, int port, List<UUID> cases, Boolean withKey)
            throws InterruptedException {
        String token = TestTokens.caseworker("w-1").token();
        long end = System.nanoTime() + duration.toNanos();
        List<long[]> latencies = new ArrayList<>();
        Map<String, Long> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(CONCURRENCY);
        long started = System.nanoTime();
        for (int i = 0; i < CONCURRENCY; i++) {
            long[] mine = new long[500_000];
            latencies.add(mine);
            int client = i;
            new Thread(() -> {
                int n = 0;
                KeepAliveHttp http = null;
                try {
                    while (System.nanoTime() < end && n < mine.length - 1) {
                        if (http == null) {
                            http = KeepAliveHttp.open(port);
                        }
                        boolean key = withKey == null ? n % 2 == 0 : withKey;
                        long t0 = System.nanoTime();
                        KeepAliveHttp.Response response = http.exchange("POST", "/cases/" + cases.get(client)
                                + "/kinship-options", token, key ? Map.of(Idempotency.HEADER, UUID.randomUUID().toString())
                                : Map.of(), BODY);
                        mine[n++] = (System.nanoTime() - t0) / 1000;
                        outcomes.merge(String.valueOf(response.status()), 1L, Long::sum);
                        if (response.closes()) {
                            http.close();
                            http = null;
                        }
                    }
                } catch (IOException e) {
                    outcomes.merge("io-error", 1L, Long::sum);
                } finally {
                    if (http != null) {
                        http.close();
                    }
                    mine[mine.length - 1] = n;
                    done.countDown();
                }
            }, "bench-client-" + i).start();
        }
        done.await();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        long[] all = latencies.stream().flatMapToLong(l -> Arrays.stream(l, 0, (int) l[l.length - 1])).toArray();
        Result result = new Result(name, all, new TreeMap<>(outcomes), elapsed);
        System.out.println(result);
        return result;
    }
}
