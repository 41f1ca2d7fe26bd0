package org.caseassignments.api.assignment;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Opt-in benchmark (never run by the build; see BENCHMARKS.md for the command and the results). What N requests
 * waiting for a revision ({@code GET /cases/{id}/assignment?min_revision=2&wait=…}) hold, and how fast one commit of
 * the projector's writer answers them all (decision 32). The API runs in this JVM with its default pool (10) and
 * request threads (50); the N clients run in a child JVM, because 10,000 connections on both sides would pass this
 * machine's limit of open files per process, and so that the heap measured here is the server's alone. A sampler
 * reads, every {@code sample-ms}, the waiters, the pool's active connections and requests waiting for one (its live
 * counts: the {@code hikaricp.*} meters are refreshed once a second) and Tomcat's busy request threads (the
 * connector's executor: what {@code tomcat.threads.busy} reports when Tomcat's MBean registry is on).
 * System properties: {@code waiters} (1000; a comma list runs each count in turn, e.g. {@code 1000,10000}),
 * {@code cases} (1; the waiters are spread over them, all moved by the one commit), {@code rounds} (2 per count, the
 * first on a cold JVM), {@code hold-ms} (2000, how long all wait before the commit: the 1 s recheck runs meanwhile),
 * {@code sample-ms} (2), {@code wait} (PT25S, the requests' wait, under Tomcat's 30 s async timeout).
 */
public final class WaitersPerformance {

    private static final List<Integer> WAITERS = Arrays.stream(System.getProperty("waiters", "1000").split(","))
            .map(String::strip).map(Integer::parseInt).toList();
    private static final int CASES = Integer.getInteger("cases", 1);
    private static final int ROUNDS = Integer.getInteger("rounds", 2);
    private static final long HOLD_MS = Long.getLong("hold-ms", 2000);
    private static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("sample-ms", 2));
    private static final Duration WAIT = Duration.parse(System.getProperty("wait", "PT25S"));

    private enum Phase { REGISTERING, WAITING, ANSWERING }

    /** What the API held, at most, in each phase of a round; the arrays are written by the sampler thread alone. */
    private static final class Peaks {
        final int[] activeConnections = new int[Phase.values().length];
        final int[] pendingConnections = new int[Phase.values().length];
        final int[] busyThreads = new int[Phase.values().length];
        final int[] liveThreads = new int[Phase.values().length];
        volatile long allRegisteredMicros = -1;
        /** When the first waiter, and the last, had been woken (left the waiters) after the commit. */
        volatile long firstWokenMicros = -1;
        volatile long allWokenMicros = -1;
        volatile double waiters;
    }

    private WaitersPerformance() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("clients")) {
            clients(Integer.parseInt(args[1]), args[2], Path.of(args[3]), Integer.parseInt(args[4]));
            return;
        }
        int most = WAITERS.stream().mapToInt(Integer::intValue).max().orElse(1000);
        TestDatabase db = TestDatabase.migrated();
        String[] settings = TestApplication.arguments(db,
                // the defaults, said out loud: 10 connections; the request threads stay application.yml's 50
                "--spring.datasource.hikari.maximum-pool-size=10",
                // Tomcat refuses connections past 8,192 by default: enough for 1,000 waiters, not for 10,000
                "--server.tomcat.max-connections=" + Math.max(8192, most + 100),
                "--api.assignment.max-wait=" + WAIT.toSeconds() + "s", "--logging.level.root=warn",
                // what N waiters hold, not the caps that refuse them: one caller opens them all
                "--api.assignment.max-waiters=" + most, "--api.assignment.max-waiters-per-subject=" + most);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class).run(settings)) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            var connector = (org.apache.coyote.AbstractProtocol<?>) ((TomcatWebServer)
                    ((WebServerApplicationContext) app).getWebServer()).getTomcat().getConnector().getProtocolHandler();
            var requestThreads = (org.apache.tomcat.util.threads.ThreadPoolExecutor) connector.getExecutor();
            HikariPoolMXBean pool = app.getBean(HikariDataSource.class).getHikariPoolMXBean();
            Gauge waiters = app.getBean(MeterRegistry.class).get("api.projection.waiters").gauge();
            System.out.println("JVM: " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                    + " CPUs, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
            System.out.println("Pool: " + app.getBean(HikariDataSource.class).getMaximumPoolSize()
                    + " connections; Tomcat: " + requestThreads.getMaximumPoolSize() + " request threads; recheck "
                    + app.getBean(AssignmentProperties.class).recheckInterval() + "; wait " + WAIT);
            System.out.println("Load average at start: " + loadAverage());
            System.out.println();
            System.out.println("| waiters | cases | round | all registered s | peak active connections: registering / "
                    + "waiting / answering | peak waiting for a connection: registering / waiting / answering | peak busy "
                    + "request threads: registering / waiting / answering | request threads alive (peak) | commit → "
                    + "first / all woken ms | commit → first answer / p50 / p99 / last ms | answers | heap used MiB: before / all waiting / after | "
                    + "load average after |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            for (int count : WAITERS) {
                for (int round = 1; round <= ROUNDS; round++) {
                    round(db, port, count, round, connector, pool, waiters);
                }
            }
        }
        System.exit(0);
    }

    private static void round(TestDatabase db, int port, int count, int round,
                              org.apache.coyote.AbstractProtocol<?> connector, HikariPoolMXBean pool, Gauge waiters)
            throws Exception {
        var requestThreads = (org.apache.tomcat.util.threads.ThreadPoolExecutor) connector.getExecutor();
        JdbcTemplate jdbc = db.jdbc();
        List<UUID> cases = new ArrayList<>();
        for (int c = 0; c < CASES; c++) {
            cases.add(Cases.assignedTo(jdbc, "w-1", "s-1", 1));
        }
        Path caseFile = Files.createTempFile("waiters-cases-", ".txt");
        Files.write(caseFile, cases.stream().map(UUID::toString).toList());
        long heapBefore = heapAfterGc();

        Peaks peaks = new Peaks();
        AtomicReference<Phase> phase = new AtomicReference<>(Phase.REGISTERING);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                double now = waiters.value();
                peaks.waiters = now;
                if (now >= count && peaks.allRegisteredMicros < 0) {
                    peaks.allRegisteredMicros = epochMicros();
                }
                if (phase.get() == Phase.ANSWERING) {
                    if (now < count && peaks.firstWokenMicros < 0) {
                        peaks.firstWokenMicros = epochMicros();
                    }
                    if (now == 0 && peaks.allWokenMicros < 0) {
                        peaks.allWokenMicros = epochMicros();
                    }
                }
                int p = phase.get().ordinal();
                peaks.activeConnections[p] = Math.max(peaks.activeConnections[p], pool.getActiveConnections());
                peaks.pendingConnections[p] = Math.max(peaks.pendingConnections[p], pool.getThreadsAwaitingConnection());
                peaks.busyThreads[p] = Math.max(peaks.busyThreads[p], requestThreads.getActiveCount());
                peaks.liveThreads[p] = Math.max(peaks.liveThreads[p], requestThreads.getPoolSize());
                LockSupport.parkNanos(SAMPLE_NANOS);
            }
        }, "waiters-sampler");
        sampler.setDaemon(true);
        sampler.start();

        Process clients = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-Dwait=" + WAIT, "-cp", System.getProperty("java.class.path"), WaitersPerformance.class.getName(), "clients",
                String.valueOf(port), TestTokens.caseworker("w-1").token(), caseFile.toString(), String.valueOf(count))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(clients.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (Exception e) {
                lines.add("failed " + e);
            }
            lines.add("eof");
        }, "waiters-clients-reader");
        reader.setDaemon(true);
        reader.start();
        String started = lines.poll(60, TimeUnit.SECONDS);
        if (started == null || !started.startsWith("started ")) {
            throw new IllegalStateException("the clients' JVM did not start: " + started);
        }
        long startMicros = Long.parseLong(started.substring("started ".length()));

        long registerDeadline = System.nanoTime() + WAIT.toNanos();
        while (peaks.allRegisteredMicros < 0 && System.nanoTime() < registerDeadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        if (peaks.allRegisteredMicros < 0) {
            System.out.println("| " + count + " | " + CASES + " | " + round + " | not all registered within " + WAIT
                    + ": " + peaks.waiters + " waiting |");
        }
        phase.set(Phase.WAITING);
        long heapWaiting = heapAfterGc();
        Thread.sleep(HOLD_MS);
        double waitingBeforeCommit = waiters.value();

        // the projector's commit: one transaction of the guarded writer moving every case to revision 2
        phase.set(Phase.ANSWERING);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));
        AssignmentWriter writer = new AssignmentWriter(jdbc);
        transaction.executeWithoutResult(status -> writer.apply(cases.stream()
                .map(caseId -> AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withJurisdiction(Cases.JURISDICTION))
                .toList()));
        long commitMicros = epochMicros();

        List<Long> afterCommit = new ArrayList<>();
        Map<String, Integer> statuses = new TreeMap<>();
        for (String line = lines.poll(WAIT.toSeconds() + 60, TimeUnit.SECONDS); ; line = lines.poll(60, TimeUnit.SECONDS)) {
            if (line == null || line.equals("eof") || line.startsWith("failed")) {
                throw new IllegalStateException("the clients' JVM ended without its answers: " + line);
            }
            if (line.equals("done")) {
                break;
            }
            String[] answer = line.split(" ");
            statuses.merge(answer[0], 1, Integer::sum);
            afterCommit.add(Long.parseLong(answer[1]) - commitMicros);
        }
        clients.waitFor(30, TimeUnit.SECONDS);
        sampling.set(false);
        sampler.join();
        // after the server has closed the clients' connections, which it learns of a while after their JVM ended
        long closeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (connector.getConnectionCount() > 10 && System.nanoTime() < closeDeadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        long heapAfter = heapAfterGc();
        afterCommit.sort(null);

        int w = Phase.WAITING.ordinal();
        int r = Phase.REGISTERING.ordinal();
        int a = Phase.ANSWERING.ordinal();
        System.out.printf("| %,d | %d | %d | %.2f | %d / %d / %d | %d / %d / %d | %d / %d / %d | %d | %.0f / %.0f "
                        + "| %.0f / %.0f / %.0f / %.0f | %s%s | %d / %d / %d | %s |%n",
                count, CASES, round, (peaks.allRegisteredMicros - startMicros) / 1e6,
                peaks.activeConnections[r], peaks.activeConnections[w], peaks.activeConnections[a],
                peaks.pendingConnections[r], peaks.pendingConnections[w], peaks.pendingConnections[a],
                peaks.busyThreads[r], peaks.busyThreads[w], peaks.busyThreads[a],
                Arrays.stream(peaks.liveThreads).max().orElse(0),
                (peaks.firstWokenMicros - commitMicros) / 1e3, (peaks.allWokenMicros - commitMicros) / 1e3,
                afterCommit.get(0) / 1e3, percentile(afterCommit, 0.50) / 1e3, percentile(afterCommit, 0.99) / 1e3,
                afterCommit.get(afterCommit.size() - 1) / 1e3, statuses,
                waitingBeforeCommit < count ? " (" + (int) waitingBeforeCommit + " still waiting at the commit)" : "",
                heapBefore >> 20, heapWaiting >> 20, heapAfter >> 20, loadAverage());
        Files.deleteIfExists(caseFile);
    }

    /**
     * The clients' JVM: sends {@code count} waiting reads at once, spread over the cases of {@code caseFile}, each on a
     * connection of its own (HTTP/1.1), and prints when each answered. Times are wall-clock microseconds, the one
     * clock two processes share.
     */
    private static void clients(int port, String token, Path caseFile, int count) throws Exception {
        List<String> cases = Files.readAllLines(caseFile);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(60)).executor(Executors.newFixedThreadPool(2)).build();
        long[] answeredMicros = new long[count];
        int[] status = new int[count];
        List<CompletableFuture<Void>> answers = new ArrayList<>(count);
        System.out.println("started " + epochMicros());
        System.out.flush();
        for (int i = 0; i < count; i++) {
            int index = i;
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/cases/"
                            + cases.get(i % cases.size()) + "/assignment?min_revision=2&wait=" + WAIT))
                    .header("Authorization", "Bearer " + token).timeout(WAIT.plusSeconds(60)).GET().build();
            answers.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, error) -> {
                answeredMicros[index] = epochMicros();
                status[index] = response == null ? -1 : response.statusCode();
                return null;
            }));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).join();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append(status[i] < 0 ? "error" : String.valueOf(status[i])).append(' ').append(answeredMicros[i])
                    .append('\n');
        }
        System.out.print(out);
        System.out.println("done");
        System.out.flush();
        System.exit(0);
    }

    private static long epochMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static double percentile(List<Long> sorted, double p) {
        return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
    }

    private static String loadAverage() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }
}
