package org.caseassignments.api.assignment;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

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
 * the projection (decision 39) with the API's default settings (2,000 waiters, 20 per subject, 4,000 connections,
 * the accept backlog). The API runs in this JVM; the clients run in a child JVM, so that their selector and their
 * garbage are not the server's, driven step by step over its standard input. The floods' requests go out from a lean
 * load generator ({@link FloodClient}: one selector thread, each request on a connection of its own), the probes
 * from a {@code java.net.http} client.
 * <ol>
 *   <li>one role-less token opens {@code waits} (2,000) concurrent waited reads, half of a case it may not read and
 *       half of cases the projection does not know: how many it holds, how fast the rest are answered;</li>
 *   <li>one caseworker opens as many of a case it may read: at most its cap held, the rest 429;</li>
 *   <li>meanwhile the readiness probe on the management port (where probes are sent, decision 42) and {@code /readyz}
 *       on the API's port, and an ordinary {@code GET /cases/{id}/assignment} of another caller, every 20 ms each,
 *       on a client of their own: their p50, p99 and max over the probes sent while a measured flood (its held
 *       waits included) was in flight;</li>
 *   <li>{@code waits} waiters of one case (100 caseworkers, 20 each) and one commit of the projector's writer: time to
 *       the last answer, and the projection reads after the commit (the {@code api.projection.age} timer counts each
 *       read of a known row; the reads counter says what started them).</li>
 * </ol>
 * Steps 1 and 2 run in turn {@code warmup} times (5), then {@code rounds} times (3), each printed: the first rounds
 * meet a cold JVM on both sides, whose compiler takes a core for a minute. System properties {@code waits} (2000),
 * {@code warmup} (5) and {@code rounds} (3). Times are wall-clock microseconds, the one clock the two processes share.
 */
public final class WaitsBoundedPerformance {

    private static final int WAITS = Integer.getInteger("waits", 2000);
    private static final int ROUNDS = Integer.getInteger("rounds", 3);
    private static final int WARMUP = Integer.getInteger("warmup", 5);
    /** How long a flood's request may go unanswered: twice the longest wait (max-wait 30s), then it is counted so. */
    private static final Duration FLOOD_TIMEOUT = Duration.ofSeconds(60);

    private WaitsBoundedPerformance() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("clients")) {
            Clients.run();
            return;
        }
        TestDatabase db = TestDatabase.migrated();
        String[] settings = TestApplication.arguments(db, "--logging.level.root=warn", "--api.assignment.max-wait=30s");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class).run(settings)) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            int managementPort = Integer.parseInt(app.getEnvironment().getProperty("local.management.port"));
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            AssignmentProperties limits = app.getBean(AssignmentProperties.class);
            System.out.println("JVM " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs; "
                    + "max-waiters " + limits.maxWaiters() + ", per subject " + limits.maxWaitersPerSubject()
                    + ", unknown cases per subject " + limits.unknownCaseWaitersPerSubject() + ", max-connections "
                    + app.getEnvironment().getProperty("server.tomcat.max-connections") + ", accept-count "
                    + app.getEnvironment().getProperty("server.tomcat.accept-count") + "; load average " + loadAverage());
            String base = "http://localhost:" + port;
            UUID readable = Cases.assignedTo(db.jdbc(), "w-1", "s-1", 1);
            UUID foreign = Cases.assignedTo(db.jdbc(), "w-1", "s-1", 1, "texas");
            try (ClientProcess clients = ClientProcess.start()) {
                clients.command("warm " + base + "/cases/" + readable + "/assignment " + TestTokens.caseworker("w-1").token());
                clients.awaitLine("warmed");

                // 1 and 2, with the probes running
                clients.command("probes " + "http://localhost:" + managementPort + "/actuator/health/readiness " + base + "/readyz "
                        + base + "/cases/" + readable + "/assignment " + TestTokens.supervisor("s-1").token());
                String roleless = TestTokens.subject("nobody").token();
                List<String> first = new ArrayList<>();
                for (int i = 0; i < WAITS; i++) {
                    first.add(base + "/cases/" + (i % 2 == 0 ? foreign : UUID.randomUUID())
                            + "/assignment?min_revision=5&wait=PT10S " + roleless);
                }
                String worker = TestTokens.caseworker("w-1").token();
                for (int round = 1 - WARMUP; round <= ROUNDS; round++) {
                    flood((round < 1 ? "warm-up" : "round " + round) + ", role-less token, half a foreign case, half unknown cases", clients,
                            meters, first);
                    awaitWaiters(meters, 0, Duration.ofSeconds(30));
                    flood((round < 1 ? "warm-up" : "round " + round) + ", caseworker, a case it may read", clients, meters, Collections.nCopies(
                            WAITS, base + "/cases/" + readable + "/assignment?min_revision=5&wait=PT10S " + worker));
                    awaitWaiters(meters, 0, Duration.ofSeconds(30));
                }
                clients.command("stop-probes");
                for (String line = clients.next(); !line.equals("probes-stopped"); line = clients.next()) {
                    System.out.println(line);
                }
                awaitWaiters(meters, 0, Duration.ofSeconds(30));

                // 4
                List<String> held = new ArrayList<>();
                for (int i = 0; i < WAITS; i++) {
                    held.add(base + "/cases/" + readable + "/assignment?min_revision=2&wait=PT30S "
                            + TestTokens.caseworker("cw-" + i / limits.maxWaitersPerSubject()).token());
                }
                clients.command("send " + requestFile(held));
                awaitWaiters(meters, WAITS, Duration.ofSeconds(60));
                double readsBefore = meters.get(CaseAssignments.AGE_METRIC).timer().count();
                Map<String, Double> triggersBefore = triggers(meters);
                new ProjectorCommits(db).assign(readable, "w-1", 2);
                long committed = epochMicros();
                String answered = clients.awaitLine("answered ");
                String[] parts = answered.split(" ");
                long last = Long.parseLong(parts[2]);
                Map<String, Double> triggersAfter = triggers(meters);
                triggersAfter.replaceAll((trigger, count) -> count - triggersBefore.getOrDefault(trigger, 0.0));
                System.out.printf("%n%,d waiters of one case (%d callers), one commit: statuses %s; commit → last "
                                + "answer %,d ms; projection rows read after the commit: %.0f; waiter reads after the "
                                + "commit by trigger: %s; load average %s%n", WAITS,
                        (WAITS + limits.maxWaitersPerSubject() - 1) / limits.maxWaitersPerSubject(), parts[1],
                        (last - committed) / 1000, meters.get(CaseAssignments.AGE_METRIC).timer().count() - readsBefore,
                        triggersAfter, loadAverage());
            }
        }
        System.exit(0);
    }

    /** {@code requests} at once from the clients' JVM; prints the statuses, the waiters held at most, the times. */
    private static void flood(String who, ClientProcess clients, MeterRegistry meters, List<String> requests)
            throws Exception {
        AtomicBoolean sampling = new AtomicBoolean(true);
        double[] peak = new double[1];
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                peak[0] = Math.max(peak[0], meters.get(ProjectionWaits.WAITERS_METRIC).gauge().value());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        });
        sampler.start();
        long cpu = cpuNanos();
        clients.command("flood " + requestFile(requests) + (who.startsWith("warm-up") ? " warm-up" : " measured"));
        String result = clients.awaitLine("flooded ");
        cpu = cpuNanos() - cpu;
        sampling.set(false);
        sampler.join();
        System.out.printf("%n%s: %,d concurrent waits → %s; waiters held at most %.0f; the API's JVM used %,d ms of "
                        + "CPU%n", who, requests.size(), result.substring("flooded ".length()), peak[0],
                TimeUnit.NANOSECONDS.toMillis(cpu));
    }

    /** CPU time this JVM has used, all its threads. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static String requestFile(List<String> requests) throws Exception {
        Path file = Files.createTempFile("waits-bounded-", ".txt");
        file.toFile().deleteOnExit();
        Files.write(file, requests);
        return file.toString();
    }

    /** The child JVM of the clients, one command per line on its input, its answers line by line. */
    private static final class ClientProcess implements AutoCloseable {
        private final Process process;
        private final PrintStream in;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private ClientProcess(Process process) {
            this.process = process;
            this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        lines.add(line);
                    }
                } catch (Exception e) {
                    lines.add("failed " + e);
                }
                lines.add("eof");
            }, "waits-bounded-clients-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static ClientProcess start() throws Exception {
            return new ClientProcess(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx1g", "-cp", System.getProperty("java.class.path"), WaitsBoundedPerformance.class.getName(),
                    "clients").redirectError(ProcessBuilder.Redirect.INHERIT).start());
        }

        void command(String line) {
            in.println(line);
        }

        String next() throws InterruptedException {
            String line = lines.poll(120, TimeUnit.SECONDS);
            if (line == null || line.equals("eof") || line.startsWith("failed ")) {
                throw new IllegalStateException("the clients' JVM stopped answering: " + line);
            }
            return line;
        }

        String awaitLine(String prefix) throws InterruptedException {
            for (String line = next(); ; line = next()) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                System.out.println(line);
            }
        }

        @Override
        public void close() throws Exception {
            in.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * The clients: the floods' requests each on a connection of its own (HTTP/1.1), from {@link FloodClient}; the
     * probes on a {@code java.net.http} client of their own.
     */
    private static final class Clients {
        private static final HttpClient PROBES = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30)).build();
        /** Whether a measured flood (not a warm-up) is in flight, its held waits included: probes count then only. */
        private static final AtomicBoolean MEASURED = new AtomicBoolean();

        static void run() throws Exception {
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            FloodClient flood = new FloodClient(FLOOD_TIMEOUT);
            Probes probes = null;
            List<CompletableFuture<FloodClient.Answer>> sent = List.of();
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                String[] words = line.split(" ");
                switch (words[0]) {
                    case "warm" -> {
                        for (int i = 0; i < 500; i++) {
                            flood.get(words[1], words[2]).join();
                        }
                        say("warmed");
                    }
                    case "probes" -> probes = Probes.start(words[1], words[2], words[3], words[4]);
                    case "stop-probes" -> {
                        probes.stopAndPrint();
                        say("probes-stopped");
                    }
                    case "flood" -> {
                        long cpu = cpuNanos();
                        MEASURED.set(words[2].equals("measured"));
                        List<FloodClient.Answer> answers = sendAll(flood, Path.of(words[1])).stream()
                                .map(CompletableFuture::join).toList();
                        MEASURED.set(false);
                        Map<String, Long> statuses = new TreeMap<>();
                        List<Long> times = new ArrayList<>();
                        for (FloodClient.Answer answer : answers) {
                            statuses.merge(String.valueOf(answer.status()), 1L, Long::sum);
                            // no answer (a failed connection, a timeout) is counted by its status, never timed
                            if (answer.answered() && (answer.status() != 200 && answer.status() != 409
                                    || answer.micros() < TimeUnit.SECONDS.toMicros(5))) {
                                times.add(answer.micros());
                            }
                        }
                        Collections.sort(times);
                        say(String.format("flooded statuses %s; the %,d answered without waiting: p50 %,.1f ms, "
                                        + "p99 %,.1f ms, max %,.1f ms; the clients' JVM used %,d ms of CPU", statuses,
                                times.size(), percentile(times, 50) / 1000.0, percentile(times, 99) / 1000.0,
                                times.get(times.size() - 1) / 1000.0, TimeUnit.NANOSECONDS.toMillis(cpuNanos() - cpu)));
                    }
                    case "send" -> {
                        sent = sendAll(flood, Path.of(words[1]));
                        List<CompletableFuture<FloodClient.Answer>> all = sent;
                        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenRun(() -> {
                            Map<String, Long> statuses = new TreeMap<>();
                            long last = 0;
                            for (CompletableFuture<FloodClient.Answer> answer : all) {
                                statuses.merge(String.valueOf(answer.join().status()), 1L, Long::sum);
                                last = Math.max(last, answer.join().epochMicros());
                            }
                            say("answered " + statuses.toString().replace(" ", "") + " " + last);
                        });
                    }
                    default -> throw new IllegalArgumentException("unknown command " + line);
                }
            }
            System.exit(0);
        }

        /** Each line of the file a request ({@code url token}), all sent at once; their answers in the same order. */
        private static List<CompletableFuture<FloodClient.Answer>> sendAll(FloodClient flood, Path file) throws Exception {
            List<String> requests = Files.readAllLines(file);
            List<CompletableFuture<FloodClient.Answer>> answers = new ArrayList<>(requests.size());
            for (String request : requests) {
                String[] parts = request.split(" ");
                answers.add(flood.get(parts[0], parts[1]));
            }
            return answers;
        }

        private static synchronized void say(String line) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** Readiness on both ports and an ordinary read by another caller, every 20 ms each, timed. */
    private static final class Probes {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<String, List<Long>> micros = new ConcurrentHashMap<>();
        private final List<Thread> threads = new ArrayList<>();

        static Probes start(String managementReadyz, String readyz, String read, String token) {
            Probes probes = new Probes();
            probes.probe("readiness on the management port", HttpRequest.newBuilder(URI.create(managementReadyz)).build());
            probes.probe("/readyz on the API's port", HttpRequest.newBuilder(URI.create(readyz)).build());
            probes.probe("GET /cases/{id}/assignment", get(read, token));
            return probes;
        }

        private void probe(String name, HttpRequest request) {
            List<Long> times = Collections.synchronizedList(new ArrayList<>());
            micros.put(name, times);
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    boolean measured = Clients.MEASURED.get();
                    try {
                        int status = Clients.PROBES.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (status != 200) {
                            throw new IllegalStateException(name + " answered " + status);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(name, e);
                    }
                    if (measured) {
                        times.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started));
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
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
            micros.forEach((name, times) -> {
                List<Long> sorted = new ArrayList<>(times);
                Collections.sort(sorted);
                Clients.say(String.format("%s during the measured floods: %,d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                        name, sorted.size(), percentile(sorted, 50) / 1000.0, percentile(sorted, 99) / 1000.0,
                        sorted.get(sorted.size() - 1) / 1000.0));
            });
        }
    }

    private static HttpRequest get(String url, String token) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(60)).build();
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
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private static long percentile(List<Long> sorted, int percent) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
    }

    private static long epochMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    private static String loadAverage() throws Exception {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }
}
