package org.caseassignments.api.assignment;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ProjectorCommits;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Opt-in benchmark (never run by the build; BENCHMARKS.md has the command and the results): the bounds on waits for
 * the projection (decision 39) with the API's default settings (2,000 waiters, 20 per subject, 4,000 connections).
 * <ol>
 *   <li>one role-less token opens {@code waits} (2,000) concurrent waited reads, half of a case it may not read and
 *       half of cases the projection does not know: how many it holds, how fast the rest are answered;</li>
 *   <li>one caseworker opens as many of a case it may read: at most its cap held, the rest 429;</li>
 *   <li>meanwhile {@code /readyz} and an ordinary {@code GET /cases/{id}/assignment} of another caller, every 20 ms:
 *       their p50, p99 and max;</li>
 *   <li>{@code waits} waiters of one case (100 caseworkers, 20 each) and one commit of the projector's writer: time to
 *       the last answer, and the projection reads after the commit (the {@code api.projection.age} timer counts each
 *       read of a known row; the reads counter says what started them).</li>
 * </ol>
 * System property {@code waits} (2000).
 */
public final class WaitsBoundedPerformance {

    private static final int WAITS = Integer.getInteger("waits", 2000);

    /** One answer: its status and how long it took from sending. */
    private record Answer(int status, long micros) {
    }

    private WaitsBoundedPerformance() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        String[] settings = TestApplication.arguments(db, "--logging.level.root=warn", "--api.assignment.max-wait=30s");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class).run(settings)) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            AssignmentProperties limits = app.getBean(AssignmentProperties.class);
            System.out.println("JVM " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs; "
                    + "max-waiters " + limits.maxWaiters() + ", per subject " + limits.maxWaitersPerSubject()
                    + ", unknown cases per subject " + limits.unknownCaseWaitersPerSubject() + ", max-connections "
                    + app.getEnvironment().getProperty("server.tomcat.max-connections") + "; load average "
                    + loadAverage());
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newFixedThreadPool(8)).connectTimeout(Duration.ofSeconds(30)).build();
            String base = "http://localhost:" + port;
            UUID readable = Cases.assignedTo(db.jdbc(), "w-1", "s-1", 1);
            UUID foreign = Cases.assignedTo(db.jdbc(), "w-1", "s-1", 1, "texas");
            warmUp(http, base, readable);

            // 1 and 2, with the probes running
            Probes probes = Probes.start(http, base, readable);
            String roleless = TestTokens.subject("nobody").token();
            flood("role-less token, half a foreign case, half unknown cases", http, meters, i -> get(base,
                    "/cases/" + (i % 2 == 0 ? foreign : UUID.randomUUID()) + "/assignment?min_revision=5&wait=PT10S",
                    roleless));
            String worker = TestTokens.caseworker("w-1").token();
            flood("caseworker, a case it may read", http, meters, i -> get(base,
                    "/cases/" + readable + "/assignment?min_revision=5&wait=PT10S", worker));
            probes.stopAndPrint();
            awaitWaiters(meters, 0, Duration.ofSeconds(30));

            // 4
            List<String> tokens = new ArrayList<>();
            for (int s = 0; s < (WAITS + limits.maxWaitersPerSubject() - 1) / limits.maxWaitersPerSubject(); s++) {
                tokens.add(TestTokens.caseworker("cw-" + s).token());
            }
            List<CompletableFuture<Answer>> waiting = new ArrayList<>();
            for (int i = 0; i < WAITS; i++) {
                waiting.add(send(http, get(base, "/cases/" + readable + "/assignment?min_revision=2&wait=PT30S",
                        tokens.get(i / limits.maxWaitersPerSubject()))));
            }
            awaitWaiters(meters, WAITS, Duration.ofSeconds(60));
            double readsBefore = meters.get(CaseAssignments.AGE_METRIC).timer().count();
            Map<String, Double> triggersBefore = triggers(meters);
            long committed = System.nanoTime();
            new ProjectorCommits(db).assign(readable, "w-1", 2);
            CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long lastMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - committed);
            Map<String, Long> statuses = new TreeMap<>();
            waiting.forEach(w -> statuses.merge(String.valueOf(w.join().status()), 1L, Long::sum));
            Map<String, Double> triggersAfter = triggers(meters);
            triggersAfter.replaceAll((trigger, count) -> count - triggersBefore.getOrDefault(trigger, 0.0));
            System.out.printf("%n%,d waiters of one case (%d callers), one commit: statuses %s; commit → last answer "
                            + "%,d ms; projection rows read after the commit: %.0f; waiter reads after the commit by "
                            + "trigger: %s; load average %s%n", WAITS, tokens.size(), statuses, lastMicros / 1000,
                    meters.get(CaseAssignments.AGE_METRIC).timer().count() - readsBefore, triggersAfter, loadAverage());
        }
        System.exit(0);
    }

    /** {@code WAITS} requests at once; prints the statuses, the waiters held at most, and the time of the others. */
    private static void flood(String who, HttpClient http, MeterRegistry meters, IntFunction<HttpRequest> request)
            throws Exception {
        AtomicBoolean sampling = new AtomicBoolean(true);
        double[] peak = new double[1];
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                peak[0] = Math.max(peak[0], meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value());
                sleepMillis(2);
            }
        });
        sampler.start();
        List<CompletableFuture<Answer>> sent = new ArrayList<>();
        for (int i = 0; i < WAITS; i++) {
            sent.add(send(http, request.apply(i)));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        sampling.set(false);
        sampler.join();
        Map<String, Long> statuses = new TreeMap<>();
        List<Long> atOnce = new ArrayList<>();
        for (CompletableFuture<Answer> answer : sent) {
            statuses.merge(String.valueOf(answer.join().status()), 1L, Long::sum);
            if (answer.join().micros() < TimeUnit.SECONDS.toMicros(5)) {
                atOnce.add(answer.join().micros());
            }
        }
        Collections.sort(atOnce);
        System.out.printf("%n%s: %,d concurrent waits → statuses %s; waiters held at most %.0f; the %,d answered without "
                        + "waiting: p50 %,d ms, p99 %,d ms, max %,d ms%n", who, WAITS, statuses, peak[0], atOnce.size(),
                percentile(atOnce, 50) / 1000, percentile(atOnce, 99) / 1000, atOnce.get(atOnce.size() - 1) / 1000);
    }

    /** {@code /readyz} and an ordinary read by another caller, every 20 ms, timed. */
    private static final class Probes {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<String, List<Long>> micros = new ConcurrentHashMap<>();
        private final List<Thread> threads = new ArrayList<>();

        static Probes start(HttpClient http, String base, UUID caseId) {
            Probes probes = new Probes();
            String supervisor = TestTokens.supervisor("s-1").token();
            probes.probe("/readyz", http, HttpRequest.newBuilder(URI.create(base + "/readyz")).build());
            probes.probe("GET /cases/{id}/assignment", http, get(base, "/cases/" + caseId + "/assignment", supervisor));
            return probes;
        }

        private void probe(String name, HttpClient http, HttpRequest request) {
            List<Long> times = Collections.synchronizedList(new ArrayList<>());
            micros.put(name, times);
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    try {
                        int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (status != 200) {
                            throw new IllegalStateException(name + " answered " + status);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(name, e);
                    }
                    times.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started));
                    sleepMillis(20);
                }
            }, "probe " + name);
            thread.start();
            threads.add(thread);
        }

        void stopAndPrint() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.println();
            micros.forEach((name, times) -> {
                List<Long> sorted = new ArrayList<>(times);
                Collections.sort(sorted);
                System.out.printf("%s during the floods: %,d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", name,
                        sorted.size(), percentile(sorted, 50) / 1000.0, percentile(sorted, 99) / 1000.0,
                        sorted.get(sorted.size() - 1) / 1000.0);
            });
        }
    }

    private static void warmUp(HttpClient http, String base, UUID caseId) throws Exception {
        String worker = TestTokens.caseworker("w-1").token();
        for (int i = 0; i < 500; i++) {
            http.send(get(base, "/cases/" + caseId + "/assignment", worker), HttpResponse.BodyHandlers.discarding());
        }
    }

    private static HttpRequest get(String base, String path, String token) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60)).build();
    }

    private static CompletableFuture<Answer> send(HttpClient http, HttpRequest request) {
        long started = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(response ->
                new Answer(response.statusCode(), TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started)));
    }

    private static Map<String, Double> triggers(MeterRegistry meters) {
        Map<String, Double> counts = new TreeMap<>();
        meters.find(ProjectionWaits.READS_METRIC).counters()
                .forEach(counter -> counts.put(counter.getId().getTag("trigger"), counter.count()));
        return counts;
    }

    private static void awaitWaiters(MeterRegistry meters, int count, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value() != count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the waiters never reached " + count + " in " + atMost + ": "
                        + meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value());
            }
            sleepMillis(5);
        }
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String loadAverage() {
        return String.format("%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage());
    }
}
